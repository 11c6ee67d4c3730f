import CellarDqlite
import CellarKit
import DqliteClient

/// What the dqlite commands share: the URL, the connection, and errors turned into diagnostics.
struct RemoteSession {
    let invocation: Invocation

    init(_ invocation: Invocation) {
        self.invocation = invocation
    }

    var io: IO { invocation.io }
    var url: String { invocation.configuration.databasePath }
    var migrationSession: MigrationSession { MigrationSession(invocation) }

    /// Connects to the cluster's leader, waiting at most the busy timeout for one.
    func connect() throws -> RemoteDatabase {
        let parsed: DqliteURL
        do {
            parsed = try DqliteURL(url)
        } catch {
            throw UsageError(error.description)
        }
        return try RemoteDatabase(parsed, busyTimeout: Int(invocation.configuration.busyTimeout))
    }

    /// A migrator on the cluster that reports progress on standard error, as the local one does.
    func migrator(_ database: RemoteDatabase, migrations: [Migration]) -> RemoteMigrator {
        let migrator = RemoteMigrator(database: database, migrations: migrations)
        migrator.observer = MigrationProgress(io: io, isQuiet: invocation.configuration.isQuiet).observe
        migrator.onReconnect = { reason, leader in
            io.printError(
                "cellar: lost the dqlite leader (\(reason)); \(leader) leads now: reading the ledger again before going on")
        }
        return migrator
    }

    /// The local migrator on the cluster, through the engine seam, reporting progress on standard error.
    func seamMigrator(_ migrations: [Migration]) throws -> Migrator {
        let migrator = Migrator(connection: RemoteConnection(try connect()), migrations: migrations)
        migrator.observer = MigrationProgress(io: io, isQuiet: invocation.configuration.isQuiet).observe
        return migrator
    }

    /// Runs `body`, turning migrator and cluster errors into what ``ErrorReporter`` prints.
    func translating(_ body: () throws -> ExitStatus) throws -> ExitStatus {
        do {
            return try migrationSession.translating(body)
        } catch let error as DqliteError {
            switch error {
            case .noLeader:
                throw CommandFailure(
                    message: "\(url): \(error) within the busy timeout (\(invocation.configuration.busyTimeout) ms)")
            case .server(let code, _) where code & 0xff == 5:
                throw CommandFailure(
                    message: "database '\(url)' is locked by another connection "
                        + "(gave up after \(invocation.configuration.busyTimeout) ms); nothing was changed")
            default:
                throw CommandFailure(message: "\(url): \(error)")
            }
        }
    }
}
