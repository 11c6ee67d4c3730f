import CellarKit

/// The migration commands on either engine: a database file, or a dqlite database through its
/// cluster's leader (CellarKit's engine seam), with one logic for both.
extension MigrationSession {
    /// Runs `body` on the database opened for writing: a file (created when `creating`; guarded
    /// against a stop) or the dqlite database. A file created here stays when `body` fails: another
    /// deploy racing this one may be writing it (unlike `run`, `migrate` and `setup` are meant to race).
    func withWritableConnection(
        creating: Bool, fileFunctions: Bool = false, _ body: (any SQLConnection) throws -> ExitStatus
    ) throws -> ExitStatus {
        let openingFile = { try openForWriting(creating: creating, fileFunctions: fileFunctions) }
        return try withConnection(guarded: true, openingFile: openingFile, body)
    }

    /// Runs `body` on the database opened for reading (an empty one when the file does not exist yet),
    /// or on the dqlite database; when `guarded`, SIGINT and SIGTERM stop it as they stop a writing
    /// command (``SignalWatcher``), on either engine.
    func withReadableConnection<Result>(guarded: Bool = false, _ body: (any SQLConnection) throws -> Result) throws
        -> Result
    {
        try withConnection(guarded: guarded, openingFile: openForReading, body)
    }

    /// Runs `body` on the database, which must exist (`schema`, `dump`): a file opened defensively (a
    /// mistyped path is an error, not a new empty file), or the dqlite database.
    func withExistingConnection<Result>(_ body: (any SQLConnection) throws -> Result) throws -> Result {
        try withConnection(guarded: false, openingFile: { try DatabaseOpener(configuration).openExisting(defensive: true) }, body)
    }

    /// Runs `body` on a connection to the configured address (``DatabaseAddress``): a file as
    /// `openingFile` opens it, or the dqlite database through its cluster's leader, its errors turned
    /// into diagnostics (``RemoteSession``). When `guarded`, SIGINT and SIGTERM stop it alike on
    /// either engine (``SignalWatcher``).
    func withConnection<Result>(
        guarded: Bool, openingFile: () throws -> Database, _ body: (any SQLConnection) throws -> Result
    ) throws -> Result {
        switch configuration.address {
        case .cluster:
            return try RemoteSession(invocation).withConnection(guarded: guarded, body)
        case .file:
            let database = try openingFile()
            guard guarded else { return try body(database) }
            return try SignalWatcher.shared.guarding(database, io: io) { try body(database) }
        }
    }

    /// A migrator on `connection` that reports progress on standard error and waits the busy timeout.
    /// `verb` names what each completed migration was: `applied` or `rolled back`.
    func migrator(
        connection: any SQLConnection, migrations: [Migration], checkpoint: Checkpoint?, verb: String = "applied"
    ) -> Migrator {
        let migrator = Migrator(connection: connection, migrations: migrations, checkpoint: checkpoint)
        migrator.busyTimeout = configuration.busyTimeout
        migrator.observer = MigrationProgress(io: io, isQuiet: configuration.isQuiet, verb: verb).observe
        return migrator
    }

    /// Applies what `options` selects and returns how many migrations were applied, as the connection's
    /// engine runs a run best (a file keeps its rollback journal between migrations). A lost connection
    /// (a dqlite leader that died or stepped down) is survived: cellar says so, connects again and
    /// migrates again, which reads the ledger first, so a migration whose `COMMIT` landed is not
    /// applied twice.
    func apply(_ migrator: Migrator, options: Migrator.Options) throws -> Int {
        let connection = migrator.database
        var applied = 0
        let observer = migrator.observer
        migrator.observer = { event in
            connection.observe(event)
            if case .finished = event { applied += 1 }
            observer?(event)
        }
        defer { migrator.observer = observer }
        _ = try translating {
            try connection.restartingAfterConnectionLoss(onReconnect: { reason, leader in
                migrator.forgetLedgerReads()
                io.printError(
                    "cellar: lost the dqlite leader (\(reason)); \(leader) leads now: reading the ledger again before going on")
            }) { try connection.duringMigrations { try migrator.migrate(options) } }
        }
        return applied
    }

    /// Runs `body`, which only reads, on a database file under one shared lock: SQLite takes and drops
    /// the lock for each statement outside a transaction (each time checking for a hot journal), so a
    /// few reads in a row (the ledger's shape, then its newest version) run in one deferred transaction,
    /// ended when `body` returns. Inside a transaction, or on a dqlite database (where `BEGIN` and
    /// `COMMIT` are two more round trips), `body` runs as it is.
    func readingUnderOneLock<Result>(_ connection: any SQLConnection, _ body: () throws -> Result) throws -> Result {
        guard let database = connection as? Database, try database.isAutocommit else { return try body() }
        try database.execute("BEGIN DEFERRED")
        let result: Result
        do {
            result = try body()
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
        try database.execute("COMMIT")
        return result
    }

    /// The schema as `cellar schema` prints it.
    func schemaSQL(of connection: any SQLConnection) throws -> String {
        try connection.schemaText()
    }

    /// Refuses `--backup` where the database cannot be copied (a dqlite database), before anything runs.
    func refuseBackupIfUncopyable() throws {
        guard BackupPolicy(invocation.arguments).isEnabled,
            let refusal = configuration.address.refusal(of: "backup", support: ClusterSupport.needsBackupAPI)
        else { return }
        throw CommandFailure(message: refusal)
    }
}
