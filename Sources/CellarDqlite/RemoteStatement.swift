internal import CSQLite
import CellarKit
import DqliteClient

/// A statement for the cluster's leader, stepped like a local one: a statement that returns rows runs
/// as a dqlite query whose rows are read frame by frame; any other runs as an exec, whose change count
/// feeds the connection's total. What the statement is (returns rows, read-only, transaction control,
/// its parameters) is what SQLite said when the connection prepared it on its local copy of the schema
/// (``StatementFacts``). Without a statement prepared on the leader, the text itself is sent (one round
/// trip); `BEGIN` waits out `SQLITE_BUSY` up to the busy timeout.
package final class RemoteStatement: SQLStatement {
    package let sql: String
    /// The byte offset of the statement's first token in the text it was prepared from.
    private let offset: Int
    /// What SQLite says of the statement.
    let facts: StatementFacts
    /// A schema statement as it was prepared on the connection's local copy of the schema for its
    /// facts, run there once the leader ran it (``RemoteConnection/didRun(_:changes:)``).
    var mirrorStatement: Statement?
    /// Whether it ran on the local copy before it was given (``RemoteConnection/prepareAhead(_:)``), so
    /// that ``RemoteConnection/didRun(_:changes:)`` does not run it there again.
    var ranOnMirror = false
    /// Whether the statement ends at the `;` that completes it (``HeldBackStatements/Piece/isComplete``).
    var endsComplete = false
    private let connection: RemoteConnection
    private let prepared: DqliteStatement?
    private let returnsRows: Bool
    private var parameters: [DqliteValue]
    // Read several times per value rendered: unchecked, as no access to it overlaps another (the
    // statement is used from one thread, and nothing holds it inout across a call).
    @exclusivity(unchecked) private var rows: DqliteRows?
    private var isStarted = false
    /// The failure of a query started to learn its columns, thrown by the next step.
    private var startFailure: DqliteError?

    init(connection: RemoteConnection, sql: String, offset: Int, prepared: DqliteStatement?, facts: StatementFacts) {
        self.connection = connection
        self.sql = sql
        self.offset = offset
        self.prepared = prepared
        self.facts = facts
        parameters = Array(repeating: .null, count: facts.parameterNames.count)
        returnsRows = Self.runsAsQuery(facts)
    }

    deinit {
        try? rows?.close()
    }

    /// As SQLite says it (`sqlite3_stmt_readonly`); transaction control is read-only.
    package var isReadOnly: Bool { facts.isReadOnly }
    package var parameterCount: Int { facts.parameterNames.count }
    /// dqlite does not report parameter names: they are SQLite's, from the local prepare.
    package func parameterName(at index: Int) -> String? {
        facts.parameterNames.indices.contains(index - 1) ? facts.parameterNames[index - 1] : nil
    }

    package func bind(_ value: (any ValueConvertible)?, at index: Int) throws {
        guard (1...max(parameters.count, 1)).contains(index), index <= parameters.count else {
            throw SQLiteError(code: SQLITE_RANGE, message: "column index out of range", sql: sql)
        }
        parameters[index - 1] = RemoteDatabase.wire(value?.sqliteValue ?? .null)
    }

    /// - Throws: ``SQLiteError`` (`SQLITE_INTERRUPT`) when the connection's ``RemoteConnection/cancellation``
    ///   is set (see ``stopReading()``).
    package func step() throws -> Bool {
        // Between rows a set flag stops the rows (Ctrl-C in the shell); a statement not started yet
        // runs, as on a file, where the runners check the flag between statements.
        if isStarted, connection.cancellation?.isCancelled == true { try stopReading() }
        let isCommit = facts.transactionOperation == "COMMIT" || facts.savepoint?.operation == "RELEASE"
        return try connection.sendingRequest(isCommit: isCommit, sql: sql, offset: offset) { try stepOnLeader() }
    }

    private func stepOnLeader() throws -> Bool {
        do {
            if !isStarted {
                isStarted = true
                guard returnsRows else {
                    connection.didRun(self, changes: try execute())
                    return false
                }
                try startQuery()
            }
            if let failure = startFailure {
                startFailure = nil
                throw failure
            }
            guard let rows, try rows.advance() else {
                connection.didRun(self, changes: 0)
                return false
            }
            return true
        } catch let error as DqliteError {
            throw connection.translate(error, sql: sql, offset: offset)
        }
    }

    /// Stops the statement where it is. A dqlite server reads no request while a query still has rows
    /// to send (an `INTERRUPT` waits for the last row, which may never come), so rows still coming are
    /// stopped the one bounded way: the connection is dropped and the leader found again, which rolls
    /// back the transaction that was open on it.
    private func stopReading() throws -> Never {
        abandonRows()
        throw SQLiteError(code: SQLITE_INTERRUPT, message: "interrupted", sql: sql)
    }

    /// Stops the rows still coming, if any, without reading them: the connection to the leader is
    /// dropped and the leader found again (see ``step()``), so an open transaction is rolled back.
    package func abandonRows() {
        guard let rows, !rows.isFinished else { return }
        self.rows = nil
        _ = try? connection.reconnect()
    }

    package func reset() throws {
        try? rows?.close()
        rows = nil
        startFailure = nil
        isStarted = false
    }

    /// The result columns; a statement that returns rows is started to learn them (dqlite names them
    /// only in its first reply), with the values bound so far.
    package var columnCount: Int {
        if returnsRows, !isStarted {
            isStarted = true
            do {
                try startQuery()
            } catch {
                startFailure = error as? DqliteError ?? .protocolViolation(String(describing: error))
            }
        }
        return rows?.columns.count ?? 0
    }

    package func columnName(at index: Int) -> String { rows?.columns[index] ?? "" }

    // The current row is read in place in the frame the leader sent (``DqliteRows``): nothing is
    // decoded into values or copied on the way to the renderer, as a local statement reads SQLite's
    // column buffers.

    package func storageClass(at index: Int) -> StorageClass {
        switch rows?.storageClass(at: index) ?? .null {
        case .null: .null
        case .integer: .integer
        case .real: .real
        case .text: .text
        case .blob: .blob
        }
    }

    package func value(at index: Int) -> Value { RemoteDatabase.value(rows?.value(at: index) ?? .null) }

    package func int64(at index: Int) -> Int64 {
        guard let rows else { return 0 }
        switch rows.storageClass(at: index) {
        case .integer: return rows.integer(at: index)
        case .real: return Int64(exactly: rows.real(at: index).rounded(.towardZero)) ?? 0
        default: return 0
        }
    }

    package func double(at index: Int) -> Double {
        guard let rows else { return 0 }
        switch rows.storageClass(at: index) {
        case .real: return rows.real(at: index)
        case .integer: return Double(rows.integer(at: index))
        default: return 0
        }
    }

    /// The bytes SQLite's `sqlite3_column_text` would give: an integer's or a real's text, written into
    /// a buffer on the stack; a text's or blob's bytes in the frame; nothing for NULL.
    package func withTextBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        guard let rows else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        switch rows.storageClass(at: index) {
        case .integer:
            var digits = CellText.noDigits
            let count = CellText.write(rows.integer(at: index), into: &digits)
            return try Swift.withUnsafeBytes(of: digits) { try body(CellText.prefix(count, of: $0)) }
        case .real:
            var digits = CellText.noDigits
            let count = CellText.write(rows.real(at: index), into: &digits)
            return try Swift.withUnsafeBytes(of: digits) { try body(CellText.prefix(count, of: $0)) }
        case .null, .text, .blob: return try body(rows.bytes(at: index))
        }
    }

    package func withBlobBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        try withTextBytes(at: index, body)
    }

    /// Sends the query: the prepared statement's id, or the text itself.
    private func startQuery() throws {
        _ = try connection.sendHeldBack()
        let leader = connection.database.connection
        rows = try prepared.map { try leader.query($0, parameters) } ?? leader.query(sql, parameters)
    }

    /// Runs the statement as an exec; a `BEGIN` is retried while the write lock is taken. A schema
    /// statement of a migration may be held back, and the statements held back go with this one when
    /// it has no parameters (``RemoteConnection/holdBack(_:facts:)``).
    private func execute() throws -> Int {
        let database = connection.database
        let piece = HeldBackStatements.Piece(sql: sql, offset: offset, isComplete: endsComplete)
        if facts.transactionOperation != nil || facts.savepoint != nil {
            let operation = facts.transactionOperation
            if operation == "ROLLBACK" { connection.dropHeldBack() } else { _ = try connection.sendHeldBack() }
            if operation == "BEGIN" {
                if connection.takesBeginWithNextRequest() {
                    database.connection.executeWithNext(sql, busyTimeout: database.busyTimeout)
                } else {
                    try database.beginImmediate(sql)
                }
                return 0
            }
        } else if prepared == nil, parameters.isEmpty {
            if connection.holdBack(piece, facts: facts) { return 0 }
            if let result = try connection.sendHeldBack(then: piece) { return changes(result) }
            if connection.defersSetting(sql, facts: facts) { return 0 }
        } else {
            _ = try connection.sendHeldBack()
        }
        let leader = database.connection
        return changes(try prepared.map { try leader.execute($0, parameters) } ?? leader.execute(sql, parameters))
    }

    /// The server reports `sqlite3_changes`, which a statement other than INSERT, UPDATE or DELETE
    /// leaves at the count of the last one that was: only those statements' own count is theirs.
    private func changes(_ result: DqliteResult) -> Int {
        facts.countsChanges ? Int(result.rowsAffected) : 0
    }

    /// Whether a statement runs as a QUERY, whose rows are read: one SQLite gives result columns,
    /// except a pragma that writes (`PRAGMA journal_mode = wal` echoes the mode), which runs as an
    /// EXEC like the rest (a dqlite 1.11 server fails a QUERY of a statement without result columns,
    /// such as `PRAGMA x = y`, with "not an error", and runs a QUERY as a read, outside Raft).
    static func runsAsQuery(_ facts: StatementFacts) -> Bool {
        facts.returnsRows && !(facts.isPragma && !facts.isReadOnly)
    }
}

@available(*, unavailable)
extension RemoteStatement: Sendable {}
