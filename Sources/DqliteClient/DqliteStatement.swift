/// A statement prepared on the leader; valid until finalized or until the connection changes leader.
public struct DqliteStatement: Equatable, Sendable {
    /// The server's statement id.
    public let id: UInt32
    /// How many parameters the statement takes.
    public let parameterCount: Int
    /// The connection generation it was prepared in (a reconnect invalidates it).
    let generation: Int
}
