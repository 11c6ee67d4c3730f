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
        return try TerminationWatcher.shared.guarding(database, io: io) { try body(database) }
    }

    /// Runs `body` on the database opened for reading (an empty one when the file does not exist yet),
    /// or on the dqlite database.
    func withReadableConnection<Result>(_ body: (any SQLConnection) throws -> Result) throws -> Result {
        if isRemote { return try RemoteSession(invocation).withConnection(body) }
        return try body(try openForReading())
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

    /// Applies what `options` selects and returns how many migrations were applied. On a dqlite
    /// database a lost leader is survived: cellar says so, finds the new leader and migrates again, which
    /// reads the ledger first, so a migration whose `COMMIT` landed is not applied twice.
    func apply(_ migrator: Migrator, options: Migrator.Options) throws -> Int {
        if let database = migrator.database as? Database {
            return try translating { try PersistentJournal.during(database) { try migrator.migrate(options) } }
                .filter { !$0.wasSkipped }.count
        }
        guard let remote = migrator.database as? RemoteConnection else {
            return try translating { try migrator.migrate(options) }.filter { !$0.wasSkipped }.count
        }
        var applied = 0
        let observer = migrator.observer
        migrator.observer = { event in
            remote.observe(event)
            if case .finished = event { applied += 1 }
            observer?(event)
        }
        defer { migrator.observer = observer }
        _ = try translating {
            try remote.restartingAfterLeaderLoss(onReconnect: { reason, leader in
                io.printError(
                    "cellar: lost the dqlite leader (\(reason)); \(leader) leads now: reading the ledger again before going on")
            }) { try migrator.migrate(options) }
        }
        return applied
    }

    /// The schema as `cellar schema` prints it.
    func schemaSQL(of connection: any SQLConnection) throws -> String {
        if let remote = connection as? RemoteConnection { return try RemoteSchema.copy(of: remote).schemaSQL() }
        guard let database = connection as? Database else { return "" }
        return try database.schemaSQL()
    }

    /// Refuses `--backup` on a dqlite database, before anything runs.
    func refuseBackupIfRemote() throws {
        guard isRemote, BackupPolicy(invocation.arguments).isEnabled else { return }
        throw CommandFailure(message: ClusterSupport.needsBackupAPI.refusal(of: "backup", url: configuration.databasePath) ?? "")
    }
}
