import DqliteClient

/// `dqlite://HOST:PORT[,HOST:PORT…]/NAME`: the nodes to ask for the leader and the database name.
public struct DqliteURL: Sendable, CustomStringConvertible {
    /// The listed nodes, in order.
    public let addresses: [NodeAddress]
    /// The database name on the cluster.
    public let database: String
    /// The URL as given.
    public let description: String

    /// Whether `text` is a `dqlite://` URL (scheme in any case).
    public static func isDqlite(_ text: String) -> Bool {
        text.lowercased().hasPrefix("dqlite://")
    }

    /// Parses a `dqlite://` URL.
    /// - Throws: ``Failure`` naming what is missing or malformed.
    public init(_ text: String) throws(Failure) {
        guard Self.isDqlite(text) else { throw Failure("'\(text)' is not a dqlite:// URL") }
        let rest = text.dropFirst("dqlite://".count)
        guard let slash = rest.firstIndex(of: "/") else {
            throw Failure("'\(text)' names no database: use dqlite://HOST:PORT[,HOST:PORT…]/NAME")
        }
        let name = String(rest[rest.index(after: slash)...])
        guard !name.isEmpty, !name.contains("/") else {
            throw Failure("'\(text)' names no database: use dqlite://HOST:PORT[,HOST:PORT…]/NAME")
        }
        var addresses: [NodeAddress] = []
        for part in rest[..<slash].split(separator: ",", omittingEmptySubsequences: false) {
            do {
                addresses.append(try NodeAddress(String(part)))
            } catch {
                throw Failure("'\(text)': '\(part)' is not a node address (HOST:PORT)")
            }
        }
        self.addresses = addresses
        database = name
        description = text
    }

    /// Why a URL is not a usable dqlite address.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// One line for the user.
        public let description: String

        init(_ description: String) {
            self.description = description
        }
    }
}
