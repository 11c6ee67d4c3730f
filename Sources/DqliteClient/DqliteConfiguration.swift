/// Where a cluster is and how long to wait for it.
public struct DqliteConfiguration: Sendable {
    /// The nodes to ask for the leader, in order.
    public var addresses: [NodeAddress]
    /// The database name on the cluster.
    public var database: String
    /// Milliseconds one TCP connect may take.
    public var connectTimeout: Int
    /// Milliseconds one request may wait for its reply (a long statement runs within it).
    public var requestTimeout: Int
    /// Milliseconds to keep looking for a leader (at start and after a lost one) before giving up.
    public var retryBudget: Int

    /// A configuration with the given nodes and database.
    /// - Parameters:
    ///   - addresses: the nodes to ask for the leader.
    ///   - database: the database name.
    ///   - connectTimeout: milliseconds per connect (default 1 s).
    ///   - requestTimeout: milliseconds per reply (default 60 s).
    ///   - retryBudget: milliseconds to find a leader (default 5 s, cellar's busy timeout).
    public init(
        addresses: [NodeAddress], database: String, connectTimeout: Int = 1000, requestTimeout: Int = 60_000,
        retryBudget: Int = 5000
    ) {
        self.addresses = addresses
        self.database = database
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.retryBudget = retryBudget
    }
}
