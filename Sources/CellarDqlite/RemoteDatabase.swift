import CellarKit
import DqliteClient
import Glibc

/// A database on a dqlite cluster, spoken to in CellarKit's values: statements with bound values,
/// rows, transactions and changes, through the cluster's leader.
///
/// SQLite's busy timeout has no remote counterpart (a dqlite leader answers `SQLITE_BUSY` at once when
/// another connection holds the write lock), so `BEGIN IMMEDIATE` is retried here, with a capped
/// backoff, until the busy timeout is spent.
public final class RemoteDatabase {
    /// Where the database is.
    public let url: DqliteURL
    /// Milliseconds to wait for the write lock and for a leader.
    public let busyTimeout: Int
    let connection: DqliteConnection

    /// Connects to the cluster's leader and opens the database (dqlite creates it when missing).
    /// - Throws: ``DqliteError`` when no leader answers within `busyTimeout`.
    public init(_ url: DqliteURL, busyTimeout: Int) throws {
        self.url = url
        self.busyTimeout = busyTimeout
        connection = try DqliteConnection(
            DqliteConfiguration(addresses: url.addresses, database: url.database, retryBudget: max(busyTimeout, 1)))
    }

    /// Runs one statement that returns no rows; the number of rows it changed.
    @discardableResult
    public func execute(_ sql: String, _ values: [Value] = []) throws -> Int {
        Int(try connection.execute(sql, values.map(Self.wire)).rowsAffected)
    }

    /// Every row of one statement.
    public func query(_ sql: String, _ values: [Value] = []) throws -> [[Value]] {
        try connection.query(sql, values.map(Self.wire)).all().map { $0.map(Self.value) }
    }

    /// The rows of one statement, read as they are consumed.
    public func stream(_ sql: String, _ values: [Value] = []) throws -> (columns: [String], next: () throws -> [Value]?) {
        let rows = try connection.query(sql, values.map(Self.wire))
        return (rows.columns, { try rows.next()?.map(Self.value) })
    }

    /// The first column of the first row, or nil without rows.
    public func scalar(_ sql: String, _ values: [Value] = []) throws -> Value? {
        try query(sql, values).first?.first
    }

    /// `BEGIN IMMEDIATE` (or the `BEGIN` statement given), retried while another connection holds the
    /// write lock, up to the busy timeout.
    public func beginImmediate(_ statement: String = "BEGIN IMMEDIATE") throws {
        var wait = 5
        var waited = 0
        while true {
            do {
                try connection.execute(statement)
                return
            } catch let error as DqliteError where Self.isBusy(error) && waited < busyTimeout {
                let step = min(wait, busyTimeout - waited)
                var request = timespec(tv_sec: 0, tv_nsec: step * 1_000_000)
                nanosleep(&request, nil)
                waited += step
                wait = min(wait * 2, 100)
            }
        }
    }

    /// Rolls back the open transaction, if the connection still has one (a lost leader took it already).
    public func rollbackIfOpen() {
        guard connection.leader != nil else { return }
        _ = try? connection.execute("ROLLBACK")
    }

    /// Finds the leader again after it was lost.
    public func reconnect() throws {
        try connection.reconnect()
    }

    /// Whether `error` means the leader or the connection was lost (the transaction is gone).
    public static func isLeadershipLoss(_ error: any Error) -> Bool {
        (error as? DqliteError)?.isLeadershipLoss ?? false
    }

    static func isBusy(_ error: DqliteError) -> Bool {
        guard let code = error.serverCode else { return false }
        // The server sends SQLite's extended code; its low byte is the primary code.
        let primary = SQLiteError.ResultCode(rawValue: Int32(code & 0xFF))
        return primary == .busy || primary == .locked
    }

    static func wire(_ value: Value) -> DqliteValue {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): .text(text)
        case .blob(let bytes): .blob(bytes)
        }
    }

    static func value(_ value: DqliteValue) -> Value {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): .text(text)
        case .blob(let bytes): .blob(bytes)
        }
    }
}

@available(*, unavailable)
extension RemoteDatabase: Sendable {}
