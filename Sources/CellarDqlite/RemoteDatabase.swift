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

    /// Finds the leader again after it was lost.
    public func reconnect() throws {
        try connection.reconnect()
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
