/// Finds the cluster's leader from any listed node, as go-dqlite's connector does: ask each node
/// who leads, follow the answer once, and start over with a capped backoff until the budget runs out.
struct LeaderLocator {
    /// The nodes to ask, in order.
    let addresses: [NodeAddress]
    /// How long one connect may take.
    let connectTimeout: Int
    /// How long one request may wait for its reply.
    let requestTimeout: Int

    /// A session to the leader, registered as a client.
    /// - Throws: `DqliteError.noLeader` when no node names a reachable leader before `deadline`.
    func connect(deadline: Deadline) throws -> NodeSession {
        var lastFailure = "no node answered"
        var backoff = 50
        while true {
            for address in addresses {
                do {
                    if let session = try attempt(address, deadline: deadline) { return session }
                    lastFailure = "\(address) knows no leader"
                } catch let error as DqliteError {
                    lastFailure = error.description
                }
                if deadline.hasPassed { break }
            }
            if deadline.hasPassed {
                throw DqliteError.noLeader(addresses: addresses.map(\.description), lastFailure: lastFailure)
            }
            deadline.sleep(milliseconds: backoff)
            backoff = min(backoff * 2, 500)
        }
    }

    /// The leader's session when `address` leads or names a leader that accepts; nil when no leader is known.
    private func attempt(_ address: NodeAddress, deadline: Deadline) throws -> NodeSession? {
        let session = try open(address, deadline: deadline)
        guard let leader = try leader(askedOf: session, deadline: deadline) else { return nil }
        if leader == address { return try register(session, deadline: deadline) }
        session.close()
        let other = try open(leader, deadline: deadline)
        guard try self.leader(askedOf: other, deadline: deadline) == leader else {
            other.close()
            return nil
        }
        return try register(other, deadline: deadline)
    }

    private func open(_ address: NodeAddress, deadline: Deadline) throws -> NodeSession {
        try NodeSession(
            address: address, connectDeadline: Deadline.after(milliseconds: connectTimeout).capped(by: deadline),
            requestTimeout: requestTimeout)
    }

    private func leader(askedOf session: NodeSession, deadline: Deadline) throws -> NodeAddress? {
        let limit = Deadline.after(milliseconds: requestTimeout).capped(by: deadline)
        switch try session.call(.leader, deadline: limit) {
        case .node(_, let address):
            if address.isEmpty { return nil }
            return try NodeAddress(address)
        case let response:
            throw response.failure ?? DqliteError.protocolViolation("unexpected reply to LEADER: \(response)")
        }
    }

    private func register(_ session: NodeSession, deadline: Deadline) throws -> NodeSession {
        let limit = Deadline.after(milliseconds: requestTimeout).capped(by: deadline)
        switch try session.call(.client(id: 0), deadline: limit) {
        case .welcome: return session
        case let response:
            session.close()
            throw response.failure ?? DqliteError.protocolViolation("unexpected reply to CLIENT: \(response)")
        }
    }
}
