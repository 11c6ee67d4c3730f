/// What can go wrong talking to a dqlite cluster.
public enum DqliteError: Error, Equatable, Sendable {
    /// The server answered with a failure: its SQLite (extended) result code and message.
    case server(code: UInt64, message: String)
    /// The connection was refused, reset or closed, or a read or write timed out.
    case connectionLost(address: String, reason: String)
    /// No listed node could name a reachable leader before the retry budget ran out.
    case noLeader(addresses: [String], lastFailure: String)
    /// The server sent bytes that do not follow the protocol.
    case protocolViolation(String)
    /// The request cannot be expressed on the wire (too many parameters, a NUL in text).
    case invalidRequest(String)
    /// An address is not `HOST:PORT`.
    case invalidAddress(String)

    /// SQLite's `SQLITE_IOERR_NOT_LEADER` and `SQLITE_IOERR_LEADERSHIP_LOST`, with the codes older
    /// servers used, and `SQLITE_NOTFOUND`, which a server may answer for a database it no longer leads.
    static let leadershipCodes: Set<UInt64> = [10 | 40 << 8, 10 | 41 << 8, 10 | 32 << 8, 10 | 33 << 8, 12]

    /// Whether the error means the node no longer leads (or never did), or the connection is gone:
    /// the open transaction is lost, and the next request must go to the (new) leader.
    public var isLeadershipLoss: Bool {
        switch self {
        case .server(let code, _): Self.leadershipCodes.contains(code)
        case .connectionLost: true
        default: false
        }
    }

    /// Whether the server answered `SQLITE_BUSY` or `SQLITE_LOCKED` (its extended code's low byte):
    /// another connection holds the write lock.
    public var isBusy: Bool {
        guard let code = serverCode else { return false }
        return code & 0xff == 5 || code & 0xff == 6
    }

    /// The server's SQLite result code, when the server answered with a failure.
    public var serverCode: UInt64? {
        if case .server(let code, _) = self { return code }
        return nil
    }
}

extension DqliteError: CustomStringConvertible {
    /// A one-line description for diagnostics.
    public var description: String {
        switch self {
        case .server(_, let message): message
        case .connectionLost(let address, let reason): "connection to dqlite node \(address) lost: \(reason)"
        case .noLeader(let addresses, let lastFailure):
            "no dqlite leader found among \(addresses.joined(separator: ", ")) (\(lastFailure))"
        case .protocolViolation(let detail): "dqlite protocol violation: \(detail)"
        case .invalidRequest(let detail): detail
        case .invalidAddress(let address): "not a dqlite node address (HOST:PORT): \(address)"
        }
    }
}
