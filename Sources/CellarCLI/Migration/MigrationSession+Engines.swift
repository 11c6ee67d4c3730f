import CellarDqlite
import CellarKit

/// The migration commands on either engine: a database file, or a dqlite database through its
/// cluster's leader (CellarKit's engine seam), with one logic for both.
extension MigrationSession {
    /// Whether the configured database is on a dqlite cluster.
    var isRemote: Bool { DqliteURL.isDqlite(configuration.databasePath) }

    /// Runs `body` on the database opened for writing: a file (created when `creating`; guarded
    /// against a stop) or the dqlite database. A file created here stays when `body` fails: another
    /// deploy racing this one may be writing it (unlike `run`, `migrate` and `setup` are meant to race).
    func withWritableConnection(
        creating: Bool, fileFunctions: Bool = false, _ body: (any SQLConnection) throws -> ExitStatus
    ) throws -> ExitStatus {
        if isRemote { return try RemoteSession(invocation).withConnection(guarded: true, body) }
        let database = try openForWriting(creating: creating, fileFunctions: fileFunctions)
        return try SignalWatcher.shared.guarding(database, io: io) { try body(database) }
    }

    /// Runs `body` on the database opened for reading (an empty one when the file does not exist yet),
    /// or on the dqlite database; when `guarded`, SIGINT and SIGTERM stop it as they stop a writing
    /// command (``SignalWatcher``), on either engine.
    func withReadableConnection<Result>(guarded: Bool = false, _ body: (any SQLConnection) throws -> Result) throws
        -> Result
    {
        if isRemote { return try RemoteSession(invocation).withConnection(guarded: guarded, body) }
        let database = try openForReading()
        guard guarded else { return try body(database) }
        return try SignalWatcher.shared.guarding(database, io: io) { try body(database) }
    }

    /// Runs `body` on the database, which must exist (`schema`, `dump`): a file opened defensively (a
    /// mistyped path is an error, not a new empty file), or the dqlite database.
    func withExistingConnection<Result>(_ body: (any SQLConnection) throws -> Result) throws -> Result {
        if isRemote { return try RemoteSession(invocation).withConnection(body) }
        return try body(try DatabaseOpener(configuration).openExisting(defensive: true))
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
                io.printError(
                    "cellar: lost the dqlite leader (\(reason)); \(leader) leads now: reading the ledger again before going on")
            }) { try connection.duringMigrations { try migrator.migrate(options) } }
        }
        return applied
    }

    /// The schema as `cellar schema` prints it.
    func schemaSQL(of connection: any SQLConnection) throws -> String {
        try connection.schemaText()
    }

    /// Refuses `--backup` on a dqlite database, before anything runs.
    func refuseBackupIfRemote() throws {
        guard isRemote, BackupPolicy(invocation.arguments).isEnabled else { return }
        throw CommandFailure(message: ClusterSupport.needsBackupAPI.refusal(of: "backup", url: configuration.databasePath) ?? "")
    }
}
