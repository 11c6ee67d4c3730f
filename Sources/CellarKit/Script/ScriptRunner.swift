/// Runs SQL scripts of any size, streamed: input is read in chunks, split where `sqlite3_complete`
/// says a statement ends, and each statement is prepared, stepped and finalized in turn, so memory
/// holds one chunk and the current statement however long the script is.
///
/// By default a script runs in one `BEGIN IMMEDIATE` transaction (all or nothing) and its own
/// transaction control is refused; with ``Options/isTransactional`` off it runs statement by
/// statement like the sqlite3 CLI. Every failure is a ``Diagnostic`` naming `path:line:column`
/// (columns in Unicode scalars) with the source line, and notes saying what was rolled back.
///
/// ```swift
/// let runner = ScriptRunner(database: db)
/// let summary = try runner.run(FileDescriptorSource(descriptor: fd), path: "seed.sql")
/// print(summary.statementCount)
/// ```
public final class ScriptRunner {
    /// How a script runs.
    public struct Options: Sendable {
        /// Whether the script runs in one transaction (all or nothing); otherwise statement by statement.
        public var isTransactional: Bool
        /// Whether `readfile`, `writefile`, `ATTACH` and `VACUUM INTO` are refused (see ``ConnectionPolicy``).
        public var isSafe: Bool
        /// How many bytes are read at a time.
        public var chunkSize: Int

        /// Creates options: by default one transaction, not safe mode, 1 MiB chunks.
        public init(isTransactional: Bool = true, isSafe: Bool = false, chunkSize: Int = 1 << 20) {
            self.isTransactional = isTransactional
            self.isSafe = isSafe
            self.chunkSize = max(chunkSize, 16)
        }
    }

    /// What a script did.
    public struct Summary: Sendable, Equatable {
        /// Statements run.
        public let statementCount: Int
        /// Rows inserted, updated or deleted.
        public let changes: Int
    }

    /// A statement that failed; the error's offset is always set, an index in the script buffer.
    private struct StatementFailure: Error {
        let error: SQLiteError
    }

    private let database: any SQLConnection
    private let options: Options
    /// Statements run so far in the current script (read by a progress display between reads).
    package private(set) var statementCount = 0
    private var appliedCount = 0

    /// Creates a runner for `database`.
    public convenience init(database: Database, options: Options = Options()) {
        self.init(connection: database, options: options)
    }

    /// Creates a runner on any engine's connection.
    package init(connection: any SQLConnection, options: Options = Options()) {
        self.database = connection
        self.options = options
    }

    /// Why the script's `BEGIN IMMEDIATE` failed when another connection held the write lock.
    package static let lockedReason = "the database is locked by another connection"

    /// Runs the script `source` holds.
    ///
    /// - Parameters:
    ///   - path: the name errors give the script (`-` for standard input).
    ///   - rows: called with each statement that returns columns (a `SELECT`), before its first step;
    ///     it must step the statement to the end (a renderer prints the rows). Without it such rows
    ///     are stepped through and dropped.
    /// - Returns: how many statements ran and how many rows they changed.
    /// - Throws: ``Diagnostic`` for an SQL error, refused statement, encoding error or empty script,
    ///   after rolling back; ``SystemError`` when the source cannot be read.
    @discardableResult
    public func run(_ source: any ByteSource, path: String, rows: ((Statement) throws -> Void)? = nil) throws -> Summary {
        // A Database's statements are Statements, the only kind this public entry point sees.
        try run(source, path: path, rowsOfAnyEngine: rows.map { body in { try body($0 as! Statement) } })
    }

    /// Runs the script `source` holds on any engine; `rows` as in ``run(_:path:rows:)``.
    ///
    /// The checks the runner adds (transaction control, safe mode) sit beside the connection's own
    /// authorizer for the time of the run and are gone afterwards.
    @discardableResult
    package func run(
        _ source: any ByteSource, path: String, rowsOfAnyEngine rows: ((any SQLStatement) throws -> Void)?
    ) throws -> Summary {
        let policy = ConnectionPolicy(refusesTransactionControl: false, isSafe: options.isSafe)
        return try database.withPolicy(policy) { try run(source, path: path, rows: rows, policy: policy) }
    }

    private func run(
        _ source: any ByteSource, path: String, rows: ((any SQLStatement) throws -> Void)?, policy: ConnectionPolicy
    ) throws -> Summary {
        statementCount = 0
        appliedCount = 0
        let changesBefore = try database.totalChanges
        if options.isTransactional {
            do {
                try database.execute("BEGIN IMMEDIATE")
            } catch let error as SQLiteError {
                // A locked or read-only database: nothing of the script has been read yet.
                let reason = error.isLockContention ? Self.lockedReason : error.message
                throw Diagnostic(path: path, message: "cannot begin the script's transaction: \(reason)", underlying: error)
            }
            policy.refusesTransactionControl = true
        }
        var buffer = ScriptBuffer(source: source, chunkSize: options.chunkSize)
        do {
            try runAll(&buffer, rows: rows)
            policy.refusesTransactionControl = false
            try finish(buffer, path: path)
        } catch let failure as StatementFailure {
            // Read the refusal before rolling back: the policy must let cellar's own ROLLBACK through.
            let refusal = policy.lastRefusal
            let message = policy.refusalMessage ?? failure.error.message
            policy.refusesTransactionControl = false
            let notes = rollBack(path: path)
            var result = Diagnostic(failure.error, path: path, in: buffer, message: message, notes: notes)
            result.reason = reason(for: refusal, error: failure.error)
            throw result
        } catch let failure as ScriptBuffer.EncodingError {
            policy.refusesTransactionControl = false
            let notes = rollBack(path: path)
            var result = Diagnostic(
                path: path, location: buffer.location(of: failure.index), sourceLine: buffer.lineText(at: failure.index),
                message: failure.message, notes: notes)
            if failure.isUTF16 { result.sourceLine = nil }
            throw result
        } catch {
            policy.refusesTransactionControl = false
            database.rollbackIfNeeded()
            throw error
        }
        return Summary(statementCount: statementCount, changes: try database.totalChanges - changesBefore)
    }

    // MARK: - Running

    private func runAll(_ buffer: inout ScriptBuffer, rows: ((any SQLStatement) throws -> Void)?) throws {
        repeat {
            try buffer.readChunk()
            try buffer.validate()
            if let end = buffer.completeEnd() {
                let reached = try runStatements(&buffer, from: buffer.consumed, upTo: end, rows: rows)
                buffer.consumed = reached
                buffer.discardConsumed()
            }
        } while !buffer.isAtEnd
    }

    /// Prepares and runs every statement in `buffer.bytes[start..<end]`, in place.
    ///
    /// - Returns: `end`.
    private func runStatements(
        _ buffer: inout ScriptBuffer, from start: Int, upTo end: Int, rows: ((any SQLStatement) throws -> Void)?
    ) throws -> Int {
        try buffer.withTerminatedBytes(upTo: end) { terminated in
            try runStatements(in: terminated, from: start, on: database, rows: rows)
        }
        return end
    }

    private func runStatements<Connection: SQLConnection>(
        in text: UnsafeBufferPointer<UInt8>, from start: Int, on connection: Connection,
        rows: ((any SQLStatement) throws -> Void)?
    ) throws {
        var cursor = StatementCursor(connection: connection, text: text, from: start)
        while true {
            let first = cursor.skipToNextStatement()
            let prepared: StatementCursor<Connection>.Prepared?
            do {
                if first < text.count - 1 { try connection.checkCancellation() }
                prepared = try cursor.next()
            } catch var error as SQLiteError {
                error.offset = error.offset ?? first
                throw StatementFailure(error: error)
            }
            guard let prepared else { return }
            statementCount += 1
            do {
                if let rows, prepared.statement.columnCount > 0 {
                    try rows(prepared.statement)
                } else {
                    try cursor.run(prepared)
                }
            } catch var error as SQLiteError {
                error.offset = error.offset ?? prepared.startOffset
                throw StatementFailure(error: error)
            }
            appliedCount += 1
        }
    }

    // MARK: - Ending

    private func finish(_ buffer: ScriptBuffer, path: String) throws {
        if statementCount == 0 {
            database.rollbackIfNeeded()
            throw Diagnostic(path: path, message: "no SQL statement in the script (it is empty or only comments)")
        }
        if options.isTransactional {
            try database.execute("COMMIT")
        } else if try !database.isAutocommit {
            database.rollbackIfNeeded()
            throw Diagnostic(
                path: path, message: "the script ended inside a transaction it began (no COMMIT)",
                notes: ["that transaction was rolled back; the statements before its BEGIN stay applied"])
        }
    }

    /// Rolls back what must be, and says what that was.
    private func rollBack(path: String) -> [String] {
        if options.isTransactional {
            database.rollbackIfNeeded()
            return ["\(path) rolled back: none of its statements were applied"]
        }
        let ran = appliedCount
        var notes = [
            "the script ran statement by statement: the \(ran) statement\(ran == 1 ? "" : "s") before this point stay applied; "
                + "the rest did not run"
        ]
        if (try? database.isAutocommit) == false {
            database.rollbackIfNeeded()
            notes.append("the transaction the script had begun was rolled back")
        }
        return notes
    }

    /// What kind of failure a statement's error is, for callers that advise on it.
    private func reason(for refusal: ConnectionPolicy.Refusal?, error: SQLiteError) -> Diagnostic.Reason? {
        switch refusal {
        case .transactionControl(let operation)?: return .transactionControlRefused(operation)
        case .unsafe(let what)?: return .refusedBySafeMode(what)
        case .ignoredInTransaction?: return .needsNoTransaction
        case .outsideRehearsal?: return nil
        case nil:
            let needsNoTransaction = options.isTransactional && error.message.contains("within a transaction")
            return needsNoTransaction ? .needsNoTransaction : nil
        }
    }
}

@available(*, unavailable)
extension ScriptRunner: Sendable {}
