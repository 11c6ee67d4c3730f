/// A node's `HOST:PORT` (`[v6]:PORT` for IPv6 literals), as dqlite lists members.
public struct NodeAddress: Hashable, Sendable, CustomStringConvertible {
    /// The host name or IP literal, without brackets.
    public let host: String
    /// The TCP port.
    public let port: UInt16

    /// Parses `HOST:PORT` or `[IPV6]:PORT`.
    /// - Throws: `DqliteError.invalidAddress` when the text is not one.
    public init(_ text: String) throws {
        let invalid = DqliteError.invalidAddress(text)
        guard let colon = text.lastIndex(of: ":") else { throw invalid }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        }
        guard !host.isEmpty, let port = UInt16(text[text.index(after: colon)...]), port > 0 else { throw invalid }
        self.host = host
        self.port = port
    }

    /// The address as dqlite writes it.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
