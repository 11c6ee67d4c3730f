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
    func connect() throws -> RemoteConnection {
        try DatabaseOpener.connectToCluster(url, busyTimeout: invocation.configuration.busyTimeout)
    }

    /// Runs `body` on CellarKit's engine seam over the cluster, turning cluster errors into what
    /// ``ErrorReporter`` prints; when `guarded`, SIGINT and SIGTERM stop it as on a file
    /// (``SignalWatcher``).
    func withConnection<Result>(guarded: Bool = false, _ body: (any SQLConnection) throws -> Result) throws -> Result {
        try translating {
            let connection = try connect()
            guard guarded else { return try body(connection) }
            return try SignalWatcher.shared.guarding(connection, io: io) { try body(connection) }
        }
    }

    /// Runs `body`, turning migrator and cluster errors into what ``ErrorReporter`` prints.
    func translating<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try migrationSession.translating(body)
        } catch let error as DqliteError {
            switch error {
            case .noLeader:
                throw CommandFailure(
                    message: "\(url): \(error) within the busy timeout (\(invocation.configuration.busyTimeout) ms); "
                        + "a leader election after a failover can take longer: raise --busy-timeout to wait for it")
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
