/// A connection to one database of a dqlite cluster, through its leader.
///
/// It asks the listed nodes for the leader, registers, and opens the database by name. A request that
/// fails because the node lost leadership, or because the connection broke, throws an error whose
/// `isLeadershipLoss` is true and leaves the connection *broken*: any open transaction is gone, and
/// nothing is sent again until `reconnect()` (or `retrying(_:)`) has found the new leader, so no
/// statement can silently run outside the transaction it belonged to.
///
/// ```swift
/// let configuration = DqliteConfiguration(addresses: [try NodeAddress("127.0.0.1:9001")], database: "app")
/// let connection = try DqliteConnection(configuration)
/// try connection.execute("CREATE TABLE t(x)")
/// let rows = try connection.query("SELECT x FROM t WHERE x > ?", [.integer(1)]).all()
/// ```
public final class DqliteConnection {
    /// Where the cluster is and how long to wait.
    public let configuration: DqliteConfiguration
    private var session: NodeSession?
    private var databaseID: UInt32 = 0
    private var generation = 0
    /// The rows of the query answered last, closed before the next request (held strongly: a weak
    /// reference would put every retain of the rows, one per value read, on the runtime's slow path).
    private var openRows: DqliteRows?
    /// A statement waiting to go with the next request (``executeWithNext(_:busyTimeout:)``).
    private var deferred: (sql: String, busyTimeout: Int)?
    /// How many requests were sent since the connection was made, for tests that count round trips.
    public private(set) var requestCount = 0
    /// How many times a reply was waited for: requests sent together are waited for once.
    public private(set) var roundTripCount = 0
    /// Called with the SQL of each statement request once it is on the wire, before its reply is read:
    /// the moment a fault test stops the leader to leave a statement's outcome unknown to the client.
    public var onStatementSent: ((String) -> Void)?

    /// Connects to the leader and opens the configured database.
    /// - Throws: `DqliteError.noLeader` when no leader is found within `retryBudget`; the server's
    ///   failure when the database cannot be opened.
    public init(_ configuration: DqliteConfiguration) throws {
        self.configuration = configuration
        try reconnect()
    }

    deinit {
        dropSession()
    }

    /// Stops the request under way from another thread (see ``DqliteAbort``).
    public let abort = DqliteAbort()

    /// The leader this connection talks to, nil while broken.
    public var leader: NodeAddress? { session?.address }

    /// Drops the current session and finds the leader again, within `retryBudget`.
    /// - Throws: `DqliteError.noLeader` when none is found in time.
    public func reconnect() throws {
        dropSession()
        openRows = nil
        let deadline = Deadline.after(milliseconds: configuration.retryBudget)
        let locator = LeaderLocator(
            addresses: configuration.addresses, connectTimeout: configuration.connectTimeout,
            requestTimeout: configuration.requestTimeout)
        var lastFailure: DqliteError?
        repeat {
            let candidate = try locator.connect(deadline: deadline)
            do {
                switch try candidate.call(.open(name: configuration.database)) {
                case .database(let id):
                    session = candidate
                    abort.attach(candidate.descriptor)
                    databaseID = id
                    generation += 1
                    return
                case let response:
                    throw response.failure ?? DqliteError.protocolViolation("unexpected reply to OPEN: \(response)")
                }
            } catch let error as DqliteError where error.isLeadershipLoss {
                candidate.close()
                lastFailure = error
                deadline.sleep(milliseconds: 100)
            }
        } while !deadline.hasPassed
        throw DqliteError.noLeader(
            addresses: configuration.addresses.map(\.description), lastFailure: lastFailure?.description ?? "timed out")
    }

    /// Runs `body`, and when it fails because the leader was lost, finds the new leader and runs it
    /// again, until `retryBudget` is spent. `body` must be safe to repeat: read state again first.
    public func retrying<T>(_ body: (DqliteConnection) throws -> T) throws -> T {
        let deadline = Deadline.after(milliseconds: configuration.retryBudget)
        while true {
            do {
                if session == nil { try reconnect() }
                return try body(self)
            } catch let error as DqliteError where error.isLeadershipLoss && !deadline.hasPassed {
                dropSession()
                deadline.sleep(milliseconds: 50)
            }
        }
    }

    // MARK: - Statements

    /// Runs SQL text that returns no rows; with several statements the server runs each in turn.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [DqliteValue] = []) throws -> DqliteResult {
        try expectResult(try call(.execSQL(database: databaseID, sql: sql, parameters: parameters)))
    }

    /// ``execute(_:_:)``, calling `whileWaiting` once the request is sent, before its reply is read: the
    /// caller's own work overlaps the server's (a `COMMIT` waits for Raft to replicate it). A statement
    /// waiting to go with the next request (``executeWithNext(_:busyTimeout:)``) goes first, as always;
    /// `whileWaiting` then runs during this request's wait, not that one's.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [DqliteValue], whileWaiting: () -> Void) throws -> DqliteResult {
        try withoutActuallyEscaping(whileWaiting) { work in
            try expectResult(try call(.execSQL(database: databaseID, sql: sql, parameters: parameters), whileWaiting: work))
        }
    }

    /// Runs `sql` — one statement without parameters that returns no rows, such as `BEGIN IMMEDIATE` —
    /// with the next request instead of alone: when that one only reads (a query), both go in one write
    /// and their replies are waited for once; before any other request, `sql` is sent alone first, so a
    /// write never runs unless `sql` succeeded. While the server answers `SQLITE_BUSY` to `sql`, it is
    /// sent again (with the query, whose rows are then dropped) with a capped backoff, up to
    /// `busyTimeout` milliseconds. Its failure is thrown by the next request.
    ///
    /// Given while another statement waits, `sql` joins it: the two go as one text, `first;\nsql`, which
    /// the server runs in turn and stops at the first failure (so `sql` never runs unless the first
    /// succeeded), sent again whole while the server answers `SQLITE_BUSY`: the first must be a
    /// statement that can run twice, and end where an appended `;` ends it (no comment of its own at
    /// the end), which the caller makes sure of.
    public func executeWithNext(_ sql: String, busyTimeout: Int) {
        if let first = deferred {
            deferred = (first.sql + ";\n" + sql, max(first.busyTimeout, busyTimeout))
        } else {
            deferred = (sql, busyTimeout)
        }
    }

    /// Runs one statement and returns its rows, read as they are consumed.
    public func query(_ sql: String, _ parameters: [DqliteValue] = []) throws -> DqliteRows {
        try expectRows(try call(.querySQL(database: databaseID, sql: sql, parameters: parameters)))
    }

    /// Prepares one statement on the leader.
    public func prepare(_ sql: String) throws -> DqliteStatement {
        switch try call(.prepare(database: databaseID, sql: sql)) {
        case .statement(_, let id, let parameterCount):
            return DqliteStatement(id: id, parameterCount: Int(parameterCount), generation: generation)
        case let response:
            throw unexpected(response, to: "PREPARE")
        }
    }

    /// Runs a prepared statement that returns no rows.
    @discardableResult
    public func execute(_ statement: DqliteStatement, _ parameters: [DqliteValue] = []) throws -> DqliteResult {
        try check(statement)
        return try expectResult(try call(.exec(database: databaseID, statement: statement.id, parameters: parameters)))
    }

    /// Runs a prepared statement and returns its rows.
    public func query(_ statement: DqliteStatement, _ parameters: [DqliteValue] = []) throws -> DqliteRows {
        try check(statement)
        return try expectRows(try call(.query(database: databaseID, statement: statement.id, parameters: parameters)))
    }

    /// Whether `statement` can still run here: prepared on the leader this connection talks to now.
    public func isValid(_ statement: DqliteStatement) -> Bool {
        statement.generation == generation && session != nil
    }

    /// Frees a prepared statement (nothing to do when the connection has changed leader since).
    public func finalize(_ statement: DqliteStatement) throws {
        guard statement.generation == generation, session != nil else { return }
        let response = try call(.finalize(database: databaseID, statement: statement.id))
        if response != .empty { throw unexpected(response, to: "FINALIZE") }
    }

    // MARK: - Rows

    /// The next ROWS frame of the open query.
    func nextRows() throws -> RowFrame {
        let session = try liveSession()
        let response = try guarded { try session.nextResponse() }
        if case .rows(let batch) = response { return batch }
        throw unexpected(response, to: "QUERY")
    }

    /// Interrupts the open query and reads up to the server's EMPTY acknowledgement.
    func interruptRows() throws {
        openRows = nil
        let session = try liveSession()
        try guarded {
            var response = try session.call(.interrupt(database: databaseID))
            while response != .empty {
                if let failure = response.failure { throw failure }
                response = try session.nextResponse()
            }
        }
    }

    // MARK: - Plumbing

    private func call(_ request: Request, whileWaiting: (() -> Void)? = nil) throws -> Response {
        if let rows = openRows, !rows.isFinished { try rows.close() }
        openRows = nil
        if let statement = deferred {
            deferred = nil
            if let response = try sendDeferred(statement, with: request) { return response }
        }
        let session = try liveSession()
        return try guarded {
            let deadline = Deadline.after(milliseconds: configuration.requestTimeout)
            try session.send(request, deadline: deadline)
            requestCount += 1
            roundTripCount += 1
            if let onStatementSent, case .execSQL(_, let sql, _) = request { onStatementSent(sql) }
            whileWaiting?()
            return try session.nextResponse(deadline: deadline)
        }
    }

    /// Sends the deferred `statement`, retried while the server answers `SQLITE_BUSY`: together with
    /// `request` when that one is a query, whose reply is then returned; alone otherwise (nil: the
    /// caller sends `request` next).
    private func sendDeferred(_ statement: (sql: String, busyTimeout: Int), with request: Request) throws -> Response? {
        let isQuery: Bool
        switch request {
        case .query, .querySQL: isQuery = true
        default: isQuery = false
        }
        var wait = 5
        var waited = 0
        while true {
            let session = try liveSession()
            let first = Request.execSQL(database: databaseID, sql: statement.sql, parameters: [])
            let (reply, queryReply) = try guarded { () throws -> (Response, Response?) in
                let deadline = Deadline.after(milliseconds: configuration.requestTimeout)
                if isQuery {
                    try session.send(together: [first, request], deadline: deadline)
                    requestCount += 2
                } else {
                    try session.send(first, deadline: deadline)
                    requestCount += 1
                }
                roundTripCount += 1
                let reply = try session.nextResponse(deadline: deadline)
                guard isQuery else { return (reply, nil) }
                var queryReply = try session.nextResponse(deadline: deadline)
                if reply.failure != nil {
                    // The query ran outside the transaction: its rows are read to their end and dropped.
                    while case .rows(let frame) = queryReply, frame.hasMore {
                        queryReply = try session.nextResponse(deadline: deadline)
                    }
                }
                return (reply, queryReply)
            }
            if let failure = reply.failure {
                guard failure.isBusy, waited < statement.busyTimeout else { throw unexpected(reply, to: "EXEC") }
                let step = min(wait, statement.busyTimeout - waited)
                Deadline.after(milliseconds: step).sleep(milliseconds: step)
                waited += step
                wait = min(wait * 2, 100)
                continue
            }
            guard case .result = reply else { throw unexpected(reply, to: "EXEC") }
            return queryReply
        }
    }

    /// Closes the session, detaching it from ``abort`` first so that no other thread shuts down a
    /// descriptor the system may hand out again.
    private func dropSession() {
        deferred = nil
        abort.detach()
        session?.close()
        session = nil
    }

    private func liveSession() throws -> NodeSession {
        guard let session else {
            throw DqliteError.connectionLost(
                address: configuration.addresses.map(\.description).joined(separator: ","),
                reason: "the leader was lost; reconnect first")
        }
        return session
    }

    /// Runs an exchange; on a lost leader or connection the session is dropped (the transaction is gone).
    private func guarded<T>(_ exchange: () throws -> T) throws -> T {
        do {
            return try exchange()
        } catch let error as DqliteError {
            if error.isLeadershipLoss {
                dropSession()
            }
            throw error
        }
    }

    private func expectResult(_ response: Response) throws -> DqliteResult {
        if case .result(let result) = response { return result }
        throw unexpected(response, to: "EXEC")
    }

    private func expectRows(_ response: Response) throws -> DqliteRows {
        guard case .rows(let batch) = response else { throw unexpected(response, to: "QUERY") }
        let rows = try DqliteRows(first: batch, connection: self)
        openRows = rows
        return rows
    }

    private func check(_ statement: DqliteStatement) throws {
        if statement.generation != generation {
            throw DqliteError.invalidRequest("the statement was prepared on a leader this connection has left")
        }
    }

    private func unexpected(_ response: Response, to request: String) -> DqliteError {
        if let failure = response.failure {
            if failure.isLeadershipLoss {
                dropSession()
            }
            return failure
        }
        return .protocolViolation("unexpected reply to \(request): \(response)")
    }
}

@available(*, unavailable)
extension DqliteConnection: Sendable {}
