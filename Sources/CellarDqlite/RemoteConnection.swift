internal import CSQLite
import CellarKit
import DqliteClient

/// CellarKit's engine seam (`SQLConnection`) over a dqlite cluster, so that the local migrator, seeder
/// and script runner run unchanged against it.
///
/// A remote server has no authorizer cellar could install: statements are found locally (trivia
/// skipped, the end where `sqlite3_complete` says so), and each is checked against the installed
/// policies for transaction control before it is sent. Errors come back as ``SQLiteError`` with the
/// server's code and message, located at the statement (or, for a syntax error, at its token). A lost
/// leader surfaces as `SQLITE_IOERR_NOT_LEADER`, which ``isLeadershipLoss(_:)`` recognises.
package final class RemoteConnection: SQLConnection {
    /// The database on the cluster.
    package let database: RemoteDatabase
    private var policies: [ConnectionPolicy] = []
    package private(set) var isAutocommit = true
    package private(set) var totalChanges = 0
    package var cancellation: CancellationFlag?

    /// The code a lost leader or connection is reported with (`SQLITE_IOERR_NOT_LEADER`).
    package static let leadershipLossCode: Int32 = 10 | 40 << 8

    /// A connection speaking through `database`.
    package init(_ database: RemoteDatabase) {
        self.database = database
    }

    /// Whether `error` (or the error under a migration failure) is a lost leader or connection.
    package static func isLeadershipLoss(_ error: any Error) -> Bool {
        switch error {
        case let error as SQLiteError: return error.code == leadershipLossCode
        case let error as DqliteError: return error.isLeadershipLoss
        case let error as Diagnostic: return error.underlying.map(isLeadershipLoss) ?? false
        case let error as MigrationError: return error.diagnostic?.underlying.map(isLeadershipLoss) ?? false
        default: return false
        }
    }

    package func prepareStatement(in text: UnsafeBufferPointer<UInt8>, from start: Int) throws -> (
        statement: RemoteStatement?, end: Int
    ) {
        let length = text.count - 1
        let first = StatementSplitter.firstToken(in: text, from: start, length: length)
        guard first < length else { return (nil, length) }
        let end = StatementSplitter.end(in: text, from: first, length: length)
        let sql = String(decoding: UnsafeBufferPointer(rebasing: text[first..<end]), as: UTF8.self)
        try authorize(sql, offset: first)
        do {
            return (try RemoteStatement(connection: self, sql: sql, prepared: database.connection.prepare(sql)), end)
        } catch let error as DqliteError {
            throw translate(error, sql: sql, offset: first)
        }
    }

    package func withPolicy<Result>(_ policy: ConnectionPolicy, _ body: () throws -> Result) throws -> Result {
        policies.append(policy)
        defer { policies.removeAll { $0 === policy } }
        return try body()
    }

    /// A remote statement cannot be watched instruction by instruction: the body runs without progress.
    package func withProgressHandler<Result>(
        every instructions: Int32, _ handler: @escaping () -> Bool, _ body: () throws -> Result
    ) throws -> Result {
        try body()
    }

    /// The nodes have no `readfile`: the body runs as it is, and a seed calling it gets the server's error.
    package func withFileFunctions<Result>(relativeTo folder: String, _ body: () throws -> Result) throws -> Result {
        try body()
    }

    package func rehearsalDatabase(copyingContents: Bool) throws -> any SQLConnection {
        guard !copyingContents else {
            throw SQLiteError(
                code: SQLITE_MISUSE,
                message: "a dqlite database cannot be copied for a rehearsal: dqlite does not offer SQLite's backup API")
        }
        return try Database(path: ":memory:")
    }

    // MARK: - For statements

    /// Notes what a statement that ran did to the transaction state and the change count.
    func didRun(_ sql: String, changes: Int) {
        totalChanges += changes
        switch TransactionControl.operation(of: sql) {
        case "BEGIN": isAutocommit = false
        case "COMMIT", "ROLLBACK": isAutocommit = true
        default: break
        }
    }

    /// The server's error as SQLite's, located at `offset` (or at the token of a syntax error).
    func translate(_ error: DqliteError, sql: String, offset: Int) -> SQLiteError {
        if error.isLeadershipLoss {
            isAutocommit = true
            return SQLiteError(code: Self.leadershipLossCode, message: error.description, sql: sql, offset: offset)
        }
        let piece = StatementSplitter.Piece(sql: sql, offset: 0)
        let within = RemoteDiagnostic.tokenOffset(of: error, in: piece) ?? 0
        let code = error.serverCode.map { Int32(truncatingIfNeeded: $0) } ?? SQLITE_ERROR
        return SQLiteError(code: code, message: error.description, sql: sql, offset: offset + within)
    }

    private func authorize(_ sql: String, offset: Int) throws {
        guard let operation = TransactionControl.operation(of: sql) else { return }
        let request = AuthorizationRequest(action: .transaction, first: operation, second: nil)
        var decision = AuthorizationDecision.allow
        for policy in policies where policy.evaluate(request) == .deny { decision = .deny }
        if decision == .deny { throw SQLiteError(code: SQLITE_AUTH, message: "not authorized", sql: sql, offset: offset) }
    }
}

@available(*, unavailable)
extension RemoteConnection: Sendable {}
