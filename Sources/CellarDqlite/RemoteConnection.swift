internal import CSQLite
import CellarKit
import DqliteClient
import Synchronization

/// CellarKit's engine seam (`SQLConnection`) over a dqlite cluster, so that the local migrator, seeder
/// and script runner run unchanged against it.
///
/// A remote server has no authorizer cellar could install: statements are found locally (trivia
/// skipped, the end where `sqlite3_complete` says so) and prepared on a local copy of the schema, which
/// finds syntax errors (located at their token) before anything is sent and tells what SQLite knows of
/// the statement (``StatementFacts``: rows, read-only, transaction control, parameters); each is checked
/// against the installed policies for transaction control. Errors come back as ``SQLiteError`` with the
/// server's code and message. A lost leader surfaces as `SQLITE_IOERR_NOT_LEADER`, which
/// ``isLeadershipLoss(_:)`` recognises; ``restartingAfterLeaderLoss(maximumRestarts:onReconnect:_:)``
/// finds the new leader and runs the work again.
///
/// Round trips are what a remote statement costs: one without parameters (or whose parameters the local
/// prepare counted) runs in one request that prepares and runs it (`EXEC_SQL`, `QUERY_SQL`); one whose
/// parameters only the server can count is prepared there once per connection and reused.
package final class RemoteConnection: SQLConnection {
    /// The database on the cluster.
    package let database: RemoteDatabase
    private var policies: [ConnectionPolicy] = []
    package var isAutocommit: Bool { !transaction.isOpen }
    /// Whether a transaction is open, followed from the statements that ran.
    private var transaction = TransactionState()
    package private(set) var totalChanges = 0
    /// Every request is a round trip to the leader.
    package var requestsAreRoundTrips: Bool { true }
    /// The database's `dqlite://` URL.
    package var name: String { database.url.description }
    package var cancellation: CancellationFlag?
    /// What kind of request is waiting for the leader's reply, for ``interruption``.
    private let request = RequestInFlight()
    /// A local copy of the database's schema, without rows, that statements are prepared on first, for
    /// syntax errors and what SQLite says of them. It starts empty and is copied from the leader when a
    /// statement names what it lacks; schema statements that ran are run on it too, and a rollback or a
    /// lost leader empties it again.
    private var mirror: Database
    /// Statements prepared on the leader, by text, reused while the connection keeps its leader.
    private var prepared: [String: DqliteStatement] = [:]
    /// What SQLite said of read-only queries, by text (``QueryFactsCache``): the migrator's ledger
    /// lookup before each migration is prepared locally once, not once per migration.
    private var queryFacts = QueryFactsCache()
    /// Where the one-statement texts given before start and end (``KnownStatementEnds``).
    private var knownEnds = KnownStatementEnds()
    /// Each text given to ``executeAndCommit(_:_:)`` with its `COMMIT` appended, or nil when it cannot
    /// go with it (``withCommit(_:)``), by text.
    private var commitTexts: [String: String?] = [:]
    /// Whether a text is transaction control, by text, for ``executeAndCommit(_:_:)``.
    private var transactionOperations: [String: String?] = [:]
    /// `CREATE INDEX` statements the leader ran that the local copy has not run yet, oldest first
    /// (``runsLater(_:)``).
    private var pendingIndexes: [String] = []
    /// How many schema statements ran on the local copy, counted for tests.
    package private(set) var localSchemaRunCount = 0
    /// How many statements were prepared on the local copy of the schema (for their facts, or to learn
    /// whether they are transaction control), counted for tests of what a migration costs.
    package private(set) var localPrepareCount = 0
    /// Schema statements of a migration waiting to go with the next statement (``holdBack(_:facts:)``).
    private var heldBack = HeldBackStatements()
    /// The migration running now and how many of its statements ran, for ``FaultPause`` points.
    private var faultVersion: Int64?
    private var faultStatements = 0
    /// A failure is being located, by a query whose own failure is not.
    private var isLocating = false
    /// A migration has just started: its `BEGIN IMMEDIATE`, the next statement, goes with the ledger
    /// lookup after it (``takesBeginWithNextRequest()``).
    private var isMigrationStarting = false
    /// The text the migrator runs after its next ``executeAndCommit(_:_:)`` (``willRunNext(_:)``).
    private var upcoming: String?
    /// The upcoming text's statements prepared on the local copy while the commit before them waited
    /// for its reply (``prepareAhead(_:)``), in order, those not taken yet by ``facts(of:offset:)``.
    private var ahead: ArraySlice<PreparedAhead> = []
    /// How many given statements were taken from what ``prepareAhead(_:)`` prepared, counted for tests.
    package private(set) var takenAheadCount = 0

    /// A statement prepared on the local copy before it was given, and whether it already ran there.
    private struct PreparedAhead {
        var sql: String
        var facts: StatementFacts
        var statement: Statement?
        var ranOnMirror: Bool
    }

    /// The code a lost leader or connection is reported with (`SQLITE_IOERR_NOT_LEADER`).
    package static let leadershipLossCode: Int32 = 10 | 40 << 8

    /// The functions cellar offers for a file's seeds, which reach files no cluster node can.
    private static let fileFunctions = ["readfile", "writefile"]

    /// What ``executeAndCommit(_:_:)`` appends to its statement.
    private static let commitTail = ";\nCOMMIT"

    /// How many prepared statements are kept on the leader at most.
    private static let preparedLimit = 64

    /// A connection speaking through `database`.
    package init(_ database: RemoteDatabase) throws {
        self.database = database
        mirror = try Database(path: ":memory:")
        database.connection.onStatementSent = { [unowned self] sql in
            if let version = faultVersion, sql == "COMMIT" || sql.hasSuffix(Self.commitTail) {
                FaultPause.reach("commit:\(version)")
            }
        }
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

    // MARK: - Faults

    /// Runs `body`; when the leader is lost, finds the new one and runs `body` again from the start, at
    /// most `maximumRestarts` times, each search bounded by the busy timeout. `body` must read the state
    /// it depends on again (the migrator reads the ledger before it applies anything), since the lost
    /// transaction may or may not have committed.
    ///
    /// - Parameter onReconnect: told why the leader was lost and which node leads now, before `body` runs again.
    package func restartingAfterConnectionLoss<Result>(
        onReconnect: (_ reason: String, _ server: String) -> Void, _ body: () throws -> Result
    ) throws -> Result {
        try restartingAfterLeaderLoss(onReconnect: onReconnect, body)
    }

    /// ``restartingAfterConnectionLoss(onReconnect:_:)`` with its bound on restarts.
    package func restartingAfterLeaderLoss<Result>(
        maximumRestarts: Int = 5, onReconnect: (_ reason: String, _ leader: String) -> Void, _ body: () throws -> Result
    ) throws -> Result {
        var restarts = 0
        while true {
            do {
                return try body()
            } catch  where Self.isLeadershipLoss(error) && restarts < maximumRestarts {
                restarts += 1
                onReconnect(Self.reason(error), try reconnect())
            }
        }
    }

    /// Finds the new leader when `error` is a lost leader or connection; returns the node that leads now.
    package func reconnect(after error: any Error) throws -> String? {
        guard Self.isLeadershipLoss(error) else { return nil }
        return try reconnect()
    }

    /// Finds the leader again after it was lost (any open transaction went with it), within the busy
    /// timeout; returns the node that leads now.
    package func reconnect() throws -> String {
        try database.reconnect()
        prepared = [:]
        heldBack.removeAll()
        transaction.end()
        forgetMirror()
        return database.connection.leader?.description ?? "?"
    }

    /// Follows a migration's progress for the fault points of a debug build (``FaultPause``):
    /// `before:V` when it starts, `statement:V:N` after its Nth statement, `commit:V` once its `COMMIT` is sent.
    package func observe(_ event: MigrationEvent) {
        guard case .started(let migration) = event else { return }
        FaultPause.reach("before:\(migration.version)")
        isMigrationStarting = true
        faultVersion = migration.version
        faultStatements = 0
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case let error as SQLiteError: error.message
        case let error as MigrationError: error.diagnostic?.underlying.map(reason) ?? String(describing: error)
        case let error as Diagnostic: error.underlying.map(reason) ?? error.message
        default: String(describing: error)
        }
    }

    // MARK: - The seam

    /// The schema, read from the leader into a local copy.
    package func schemaText() throws -> String {
        try RemoteSchema.copy(of: self).schemaSQL()
    }

    /// Drops the connection to the leader while a statement waits for its reply (a dqlite server reads
    /// no other request meanwhile); a commit under way is left to finish, so that whether it landed is
    /// known. A stop between statements is the ``cancellation`` flag's.
    package var interruption: ConnectionInterruption {
        let request = request
        let abort = database.connection.abort
        return ConnectionInterruption(method: .droppingConnection) {
            if request.kind.load(ordering: .sequentiallyConsistent) == RequestInFlight.statement { abort.abort() }
        }
    }

    /// Runs `body`, a request of one statement (a commit when `isCommit`), as one ``interruption`` may
    /// stop; when it was stopped so, the error is `SQLITE_INTERRUPT` on the statement, the transaction
    /// open on the leader is gone, and the leader is found again for what follows.
    func sendingRequest<Result>(isCommit: Bool, sql: String, offset: Int, _ body: () throws -> Result) throws -> Result {
        request.kind.store(isCommit ? RequestInFlight.commit : RequestInFlight.statement, ordering: .sequentiallyConsistent)
        defer { request.kind.store(RequestInFlight.none, ordering: .sequentiallyConsistent) }
        do {
            return try body()
        } catch let error as SQLiteError where error.code == Self.leadershipLossCode && cancellation?.isCancelled == true {
            _ = try? reconnect()
            throw SQLiteError(code: SQLITE_INTERRUPT, message: "interrupted", sql: sql, offset: offset)
        }
    }

    package func prepareStatement(in text: UnsafeBufferPointer<UInt8>, from start: Int) throws -> (
        statement: RemoteStatement?, end: Int
    ) {
        let length = text.count - 1
        let body = UnsafeBufferPointer(rebasing: text[..<length])
        let first: Int
        let end: Int
        let isComplete: Bool
        if start == 0, let known = knownEnds.bounds(of: body) {
            (first, end, isComplete) = known
        } else {
            first = SQLLexer.statementStart(in: body, from: start)
            guard first < length else { return (nil, length) }
            let found = StatementBoundaryScanner.firstEnd(in: body, from: first)
            end = found ?? length
            isComplete = found != nil
            if start == 0, length <= KnownStatementEnds.longestText, SQLLexer.statementStart(in: body, from: end) == length {
                knownEnds.remember(body, first: first, end: end, isComplete: isComplete)
            }
        }
        let piece = UnsafeBufferPointer(rebasing: text[first..<end])
        let sql = String(decoding: piece, as: UTF8.self)
        let local = try facts(of: sql, offset: first)
        let facts = local?.facts
        // Only the migrator's own `BEGIN IMMEDIATE`, a text of its own, goes with the next request; a
        // file's statements (a `transaction:false` file's `BEGIN` among them) never do.
        if !(sql == "BEGIN IMMEDIATE" && first == 0 && end == length) { isMigrationStarting = false }
        try authorize(facts ?? Self.readFacts(of: sql), sql: sql, offset: first)
        if let facts {
            try refuseWriteReturningRows(facts, sql: sql, offset: first)
            let statement = RemoteStatement(connection: self, sql: sql, offset: first, prepared: nil, facts: facts)
            statement.mirrorStatement = local?.statement
            statement.ranOnMirror = local?.ranOnMirror ?? false
            statement.endsComplete = isComplete
            return (statement, end)
        }
        let read = Self.readFacts(of: sql)
        if read.parameterNames.isEmpty {
            let statement = RemoteStatement(connection: self, sql: sql, offset: first, prepared: nil, facts: read)
            statement.endsComplete = isComplete
            return (statement, end)
        }
        do {
            _ = try sendHeldBack()
            let statement = try preparedOnLeader(sql)
            var facts = read
            if facts.parameterNames.count != statement.parameterCount {
                facts.parameterNames = Array(repeating: nil, count: statement.parameterCount)
            }
            return (RemoteStatement(connection: self, sql: sql, offset: first, prepared: statement, facts: facts), end)
        } catch let error as DqliteError {
            throw translate(error, sql: sql, offset: first)
        }
    }

    /// Statements held back meanwhile are sent before it returns, or dropped when `body` throws (the
    /// transaction they belong to is rolled back).
    package func withPolicy<Result>(_ policy: ConnectionPolicy, _ body: () throws -> Result) throws -> Result {
        policies.append(policy)
        defer { policies.removeAll { $0 === policy } }
        let result: Result
        do {
            result = try body()
        } catch {
            heldBack.removeAll()
            throw error
        }
        _ = try sendHeldBack()
        return result
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

    /// The statement and `COMMIT` in one `EXEC_SQL` request: the server runs them in turn and stops at
    /// the first failure, so the commit happens only when the statement succeeded, and the values bind
    /// to the first statement. Text that is not one plain statement takes two requests.
    package func executeAndCommit(_ sql: String, _ arguments: [any ValueConvertible]) throws {
        try checkCancellation()
        guard transactionOperation(of: sql) == nil, let text = withCommit(sql) else {
            try execute(sql, arguments)
            try execute("COMMIT")
            return
        }
        let next = upcoming
        upcoming = nil
        do {
            let result = try sendingRequest(isCommit: true, sql: sql, offset: 0) {
                try database.connection.execute(text, arguments.map { RemoteDatabase.wire($0.sqliteValue) }) {
                    if let next { prepareAhead(next) }
                }
            }
            totalChanges += Int(result.rowsAffected)
            transaction.end()
        } catch let error as DqliteError {
            throw translate(error, sql: sql, offset: 0)
        }
    }

    package func willRunNext(_ sql: String?) {
        upcoming = sql
    }

    /// Prepares the statements of `text` on the local copy of the schema, as ``prepareStatement(in:from:)``
    /// would once they are given, and runs there the schema statements ``didRun(_:changes:)`` would run
    /// (so that the statements after them prepare): called while a commit waits for its reply, so
    /// that this work costs no time on the request path. It sends nothing; it stops at the first
    /// statement that does not prepare on the copy as it is. What it prepared is taken in order by
    /// ``facts(of:offset:)``; anything else given first drops it, and the copy with it when a schema
    /// statement ran there ahead (``dropPreparedAhead()``).
    private func prepareAhead(_ text: String) {
        dropPreparedAhead()
        for sql in StatementSplitter.split(text).map(\.sql) {
            if queryFacts[sql] != nil { continue }
            guard let (statement, facts) = try? mirror.preparedWithFacts(sql) else { return }
            localPrepareCount += 1
            queryFacts.remember(facts, for: sql)
            if queryFacts[sql] != nil { continue }
            var entry = PreparedAhead(sql: sql, facts: facts, statement: nil, ranOnMirror: false)
            if facts.changesSchema, !Self.runsLater(facts) {
                localSchemaRunCount += 1
                do {
                    try statement.run()
                } catch {
                    forgetMirror()
                    return
                }
                entry.ranOnMirror = true
            } else if facts.changesSchema {
                entry.statement = statement
            }
            ahead.append(entry)
            if facts.transactionOperation != nil || facts.savepoint != nil { return }
        }
    }

    /// Drops what ``prepareAhead(_:)`` prepared and no statement took; when a schema statement of it
    /// ran on the local copy, the copy is emptied too (to be copied from the leader when needed), since
    /// it now holds what the leader may never run.
    private func dropPreparedAhead() {
        let ranAhead = ahead.contains { $0.ranOnMirror }
        ahead = []
        if ranAhead { forgetMirror() }
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

    /// Notes what a statement that ran did to the transaction state, the change count and the local
    /// copy of the schema.
    func didRun(_ statement: RemoteStatement, changes: Int) {
        let facts = statement.facts
        totalChanges += changes
        transaction.didRun(facts)
        if facts.transactionOperation == "ROLLBACK" || facts.savepoint?.operation == "ROLLBACK" {
            forgetMirror()
        } else if facts.changesSchema, Self.runsLater(facts) {
            statement.mirrorStatement = nil
            pendingIndexes.append(statement.sql)
        } else if facts.changesSchema, statement.ranOnMirror {
            // ``prepareAhead(_:)`` ran it on the copy already.
            statement.ranOnMirror = false
        } else if facts.changesSchema {
            localSchemaRunCount += 1
            do {
                // The statement the facts came from, when it was prepared on this copy: preparing a
                // schema statement again cost as much as a third of running it.
                if let local = statement.mirrorStatement, local.database === mirror {
                    statement.mirrorStatement = nil
                    try local.run()
                } else {
                    try mirror.execute(statement.sql)
                }
            } catch {
                forgetMirror()
            }
        }
        if let version = faultVersion, policies.contains(where: \.refusesTransactionControl) {
            faultStatements += 1
            FaultPause.reach("statement:\(version):\(faultStatements)")
        }
    }

    /// Whether the `BEGIN` running now is the one a migration starts with (the migrator's first
    /// statement after ``observe(_:)`` saw it start), which goes to the leader in one write with the
    /// ledger lookup that follows it: one round trip for the two, as the `dqlite` shell's `BEGIN`
    /// costs. The lookup only reads, so when the `BEGIN` fails nothing ran outside the transaction.
    func takesBeginWithNextRequest() -> Bool {
        defer { isMigrationStarting = false }
        return isMigrationStarting
    }

    /// Sends `sql` with the next request instead of alone when it only sets `PRAGMA foreign_keys` (as
    /// SQLite's authorizer reports it: one pragma action, with a value) outside a transaction: a setting
    /// of this connection that returns no rows, writes nothing to replicate and can run twice, so it goes
    /// in the next request's write (in one text with a migration's `BEGIN IMMEDIATE`, which then runs only
    /// if the setting succeeded; beside a query; alone before any other request). The migrator's turning
    /// enforcement off before its first migration and back on after its last cost no round trip of their
    /// own. Its failure, if any, is thrown by the next request.
    /// - Returns: whether it was deferred (it then counts as run, changing no rows).
    func defersSetting(_ sql: String, facts: StatementFacts) -> Bool {
        guard isAutocommit, facts.columnCount == 0, facts.parameterNames.isEmpty, facts.actions.count == 1,
            facts.actions[0].action == .pragma, facts.actions[0].second != nil,
            facts.actions[0].first?.lowercased() == "foreign_keys", withCommit(sql) != nil
        else { return false }
        database.connection.executeWithNext(sql, busyTimeout: database.busyTimeout)
        return true
    }

    // MARK: - Holding schema statements back

    /// Holds `piece` back when it is a schema statement of a migration cellar runs in its own
    /// transaction (see ``HeldBackStatements``), to be sent with the statement after it.
    /// - Returns: whether it was held back (it then counts as run, changing no rows).
    func holdBack(_ piece: HeldBackStatements.Piece, facts: StatementFacts) -> Bool {
        guard !isAutocommit, policies.contains(where: \.refusesTransactionControl), facts.changesSchema else { return false }
        heldBack.append(piece)
        return true
    }

    /// Drops what was held back: a `ROLLBACK` would undo it anyway.
    func dropHeldBack() {
        heldBack.removeAll()
    }

    /// Sends the statements held back, then `last` when given (a statement without parameters), in one
    /// request inside a savepoint.
    /// - Returns: the result of the request (its change count is that of the last statement), or nil
    ///   when nothing was held back (and `last` was not sent).
    /// - Throws: ``SQLiteError`` located at the statement that failed.
    func sendHeldBack(then last: HeldBackStatements.Piece? = nil) throws -> DqliteResult? {
        guard !heldBack.isEmpty else { return nil }
        let pieces = heldBack.take() + (last.map { [$0] } ?? [])
        guard let text = HeldBackStatements.batchText(pieces) else {
            var result: DqliteResult?
            for piece in pieces { result = try runAlone(piece) }
            return result
        }
        do {
            return try database.connection.execute(text)
        } catch let error as DqliteError {
            return try runAgainOneByOne(pieces, after: error)
        }
    }

    /// After a batch failed: back to its savepoint, then each statement alone, so that the one that
    /// fails throws, located. When the savepoint is gone, the failure ended the transaction, which only
    /// the last statement can do on its own (a trigger's `RAISE(ROLLBACK)`, `OR ROLLBACK`): it is blamed.
    private func runAgainOneByOne(_ pieces: [HeldBackStatements.Piece], after error: DqliteError) throws -> DqliteResult {
        let last = pieces[pieces.count - 1]
        guard !error.isLeadershipLoss else { throw translate(error, sql: pieces[0].sql, offset: pieces[0].offset) }
        do {
            try database.connection.execute("ROLLBACK TO \(HeldBackStatements.savepoint)")
        } catch let rollback as DqliteError {
            if rollback.isLeadershipLoss { throw translate(rollback, sql: pieces[0].sql, offset: pieces[0].offset) }
            transaction.end()
            throw translate(error, sql: last.sql, offset: last.offset)
        }
        var result = DqliteResult(lastInsertID: 0, rowsAffected: 0)
        for piece in pieces { result = try runAlone(piece) }
        _ = try runAlone(HeldBackStatements.Piece(sql: "RELEASE \(HeldBackStatements.savepoint)", offset: last.offset))
        return result
    }

    private func runAlone(_ piece: HeldBackStatements.Piece) throws -> DqliteResult {
        do {
            return try database.connection.execute(piece.sql)
        } catch let error as DqliteError {
            throw translate(error, sql: piece.sql, offset: piece.offset)
        }
    }

    /// The server's error as SQLite's, on the statement `sql` whose first token is at `offset`, and
    /// located as on a file: at the token SQLite names for an error found while preparing (see
    /// ``locatedOffset(of:in:at:)``), else at the statement's first token.
    func translate(_ error: DqliteError, sql: String, offset: Int) -> SQLiteError {
        if error.isLeadershipLoss {
            transaction.end()
            prepared = [:]
            heldBack.removeAll()
            forgetMirror()
            return SQLiteError(code: Self.leadershipLossCode, message: error.description, sql: sql, offset: offset)
        }
        let code = error.serverCode.map { Int32(truncatingIfNeeded: $0) } ?? SQLITE_ERROR
        // Only a failure the server answered leaves the connection ready for the query that locates it.
        let isPrepareKind = error.serverCode.map { $0 & 0xff } == UInt64(SQLITE_ERROR)
        let offset = isPrepareKind ? locatedOffset(of: error.description, in: sql, at: offset) : offset
        if let function = Self.fileFunctions.first(where: { error.description == "no such function: \($0)" }) {
            return SQLiteError(
                code: code,
                message: "\(function)() is not available on a dqlite database: it works on files of the machine running "
                    + "SQLite, and the cluster's nodes do not offer it",
                sql: sql, offset: offset)
        }
        return SQLiteError(code: code, message: error.description, sql: sql, offset: offset)
    }

    /// Where in the statement at `offset` the server's failure `message` is: the token SQLite names,
    /// found by preparing `sql` against a local copy of the schema (one query, made only on failure, and
    /// inside the open transaction, so that a migration's earlier statements count), or `offset`. Syntax
    /// errors never get here: the local prepare before sending found them at their token.
    private func locatedOffset(of message: String, in sql: String, at offset: Int) -> Int {
        guard !isLocating else { return offset }
        isLocating = true
        defer { isLocating = false }
        guard let schema = try? RemoteSchema.copy(of: database.connection),
            let token = RemoteDiagnostic.tokenOffset(of: message, in: sql, schema: schema)
        else { return offset }
        return offset + token
    }

    // MARK: - Preparing

    /// What SQLite says of `sql`, prepared on the local copy of the schema: a syntax error is thrown
    /// there, located at its token, before anything is sent (the server would report the same one).
    /// When the copy lacks what the statement names, it is copied from the leader again and the prepare
    /// tried once more; nil when that fails too (the server then reports why, or has what no local
    /// SQLite has).
    ///
    /// - Returns: the facts, and the statement prepared on the copy for a schema statement (which
    ///   ``didRun(_:changes:)`` runs on the copy once the leader ran it); a read-only query's facts
    ///   may come from ``queryFacts``.
    private func facts(of sql: String, offset: Int) throws -> (
        facts: StatementFacts, statement: Statement?, ranOnMirror: Bool
    )? {
        if let facts = queryFacts[sql] { return (facts, nil, false) }
        if let entry = ahead.first {
            if entry.sql == sql {
                ahead.removeFirst()
                takenAheadCount += 1
                return (entry.facts, entry.statement, entry.ranOnMirror)
            }
            // A query of the migrator's before the statements prepared ahead (a ledger lookup the run has
            // not sent before) changes nothing on the copy and names nothing they created: they stay.
            if let (_, facts) = try? mirror.preparedWithFacts(sql), facts.isReadOnly, !facts.changesSchema,
                facts.transactionOperation == nil, facts.savepoint == nil
            {
                localPrepareCount += 1
                queryFacts.remember(facts, for: sql)
                return (facts, nil, false)
            }
            dropPreparedAhead()
        }
        for attempt in 0..<2 {
            do {
                localPrepareCount += 1
                let (statement, facts) = try mirror.preparedWithFacts(sql)
                queryFacts.remember(facts, for: sql)
                return (facts, facts.changesSchema ? statement : nil, false)
            } catch var error as SQLiteError {
                if RemoteDiagnostic.isSyntaxError(error.message) {
                    error.offset = offset + (error.offset ?? 0)
                    throw error
                }
                guard attempt == 0 else { return nil }
                if runPendingIndexes(), let prepared = try? mirror.preparedWithFacts(sql) {
                    localPrepareCount += 1
                    queryFacts.remember(prepared.facts, for: sql)
                    return (prepared.facts, prepared.facts.changesSchema ? prepared.statement : nil, false)
                }
                do {
                    _ = try sendHeldBack()
                    mirror = try RemoteSchema.copy(of: database.connection)
                    pendingIndexes = []
                    ahead = []
                } catch let error as DqliteError {
                    throw translate(error, sql: sql, offset: offset)
                }
            }
        }
        return nil
    }

    /// The transaction operation of `sql` (`BEGIN`, `COMMIT`, `ROLLBACK`) as the local prepare reports
    /// it, nil for any other statement or one the copy cannot prepare; remembered by text, which alone
    /// decides it (SQLite's parser reports transaction control before it looks up any name).
    private func transactionOperation(of sql: String) -> String? {
        if let known = transactionOperations[sql] { return known }
        localPrepareCount += 1
        let operation = (try? mirror.facts(of: sql))?.transactionOperation
        if transactionOperations.count >= Self.preparedLimit { transactionOperations = [:] }
        transactionOperations[sql] = operation
        return operation
    }

    /// Empties the local copy of the schema, to be copied again when a statement needs it: what it
    /// holds may have been rolled back.
    private func forgetMirror() {
        pendingIndexes = []
        ahead = []
        if let empty = try? Database(path: ":memory:") { mirror = empty }
    }

    /// Whether a schema statement only creates an index, which the local copy runs only when a later
    /// statement does not prepare without it (``runPendingIndexes()``). Running a schema statement on
    /// the copy costs what SQLite's reading of the schema again costs, and an index changes nothing
    /// the connection reads of another statement that prepares without it: whether it returns rows,
    /// writes, is transaction control, changes the schema, its parameters. One that needs it (an upsert
    /// naming its columns, `INDEXED BY`, `DROP INDEX`, another index of that name) fails to prepare
    /// first, and the copy then runs the indexes it lacks and prepares it again; one that prepares
    /// where the leader then fails reports the leader's error, as it does for any statement.
    private static func runsLater(_ facts: StatementFacts) -> Bool {
        var createsIndex = false
        for request in facts.actions {
            guard case .other(let code) = request.action else { continue }
            if code == SQLITE_CREATE_INDEX {
                createsIndex = true
            } else if StatementFacts.isSchemaAction(code) {
                return false
            }
        }
        return createsIndex
    }

    /// Runs the indexes the local copy lacks, in the order the leader ran them; returns whether there
    /// were any and all ran (else the copy is emptied, to be copied from the leader again).
    private func runPendingIndexes() -> Bool {
        guard !pendingIndexes.isEmpty else { return false }
        let statements = pendingIndexes
        pendingIndexes = []
        for sql in statements {
            localSchemaRunCount += 1
            do {
                try mirror.execute(sql)
            } catch {
                forgetMirror()
                return false
            }
        }
        return true
    }

    /// What the text tells of a statement the local copy cannot prepare: it runs as a query when it
    /// starts with `SELECT`, `VALUES` or `EXPLAIN`, and its parameters are numbered as SQLite numbers
    /// them (<https://sqlite.org/lang_expr.html#parameters>).
    static func readFacts(of sql: String) -> StatementFacts {
        let bytes = Array(sql.utf8)
        let first = SQLLexer(bytes).firstSignificantTokens(1).first
        let isQuery = first.map { token in
            token.isWord("select", in: bytes) || token.isWord("values", in: bytes) || token.isWord("explain", in: bytes)
        }
        var names: [String?] = []
        for token in SQLLexer(bytes) where token.kind == .parameter {
            let name = token.text(in: bytes)
            if name == "?" {
                names.append(nil)
            } else if name.hasPrefix("?"), let number = Int(name.dropFirst()), (1...32766).contains(number) {
                while names.count < number { names.append(nil) }
                names[number - 1] = name
            } else if !names.contains(name) {
                names.append(name)
            }
        }
        return StatementFacts(
            columnCount: isQuery == true ? 1 : 0, isReadOnly: isQuery == true, isExplain: false, parameterNames: names,
            actions: [])
    }

    /// `sql` prepared on the leader, once per connection.
    private func preparedOnLeader(_ sql: String) throws -> DqliteStatement {
        let connection = database.connection
        if let statement = prepared[sql], connection.isValid(statement) { return statement }
        if prepared.count >= Self.preparedLimit {
            for statement in prepared.values { try? connection.finalize(statement) }
            prepared = [:]
        }
        let statement = try connection.prepare(sql)
        prepared[sql] = statement
        return statement
    }

    /// The static `withCommit(_:)`, remembered by text: the migrator's ledger row is the same text for
    /// every migration.
    private func withCommit(_ sql: String) -> String? {
        if let known = commitTexts[sql] { return known }
        let text = Self.withCommit(sql)
        if commitTexts.count >= Self.preparedLimit { commitTexts = [:] }
        commitTexts[sql] = .some(text)
        return text
    }

    /// `sql` and `COMMIT` as one text the server runs statement by statement, or nil unless `sql` is
    /// exactly one statement ending where the appended `;` ends it (no `;` or comment of its own at the
    /// end: the server stops at an empty statement, which would skip the `COMMIT`).
    static func withCommit(_ sql: String) -> String? {
        let text = sql + commitTail
        let pieces = StatementSplitter.split(text)
        guard pieces.count == 2, pieces[1].sql == "COMMIT",
            pieces[0].offset + pieces[0].sql.utf8.count == sql.utf8.count + 1
        else { return nil }
        return text
    }

    /// Refuses a write with `RETURNING` before it is sent: a dqlite server runs a statement that returns
    /// rows as a read, outside Raft, so its change is never replicated (dqlite 1.11 returns the rows,
    /// drops the change, and its leader then fails an assertion and exits).
    private func refuseWriteReturningRows(_ facts: StatementFacts, sql: String, offset: Int) throws {
        guard facts.writesReturningRows else { return }
        throw SQLiteError(
            code: SQLITE_ERROR,
            message: "RETURNING is not available on a dqlite database: the server runs a statement that returns "
                + "rows as a read, so the write would not be replicated; run the write, then a SELECT",
            sql: sql, offset: offset)
    }

    private func authorize(_ facts: StatementFacts, sql: String, offset: Int) throws {
        guard let operation = facts.transactionOperation else { return }
        let request = AuthorizationRequest(action: .transaction, first: operation, second: nil)
        var decision = AuthorizationDecision.allow
        for policy in policies where policy.evaluate(request) == .deny { decision = .deny }
        if decision == .deny { throw SQLiteError(code: SQLITE_AUTH, message: "not authorized", sql: sql, offset: offset) }
    }
}

@available(*, unavailable)
extension RemoteConnection: Sendable {}

/// Which request of a connection is waiting for its reply, read by the signal watcher's thread.
private final class RequestInFlight: Sendable {
    static let none = 0
    static let statement = 1
    static let commit = 2
    let kind = Atomic<Int>(RequestInFlight.none)
}
