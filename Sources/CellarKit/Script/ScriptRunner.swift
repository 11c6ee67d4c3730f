internal import CSQLite

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

    /// A statement that failed, by its index in the script buffer.
    private struct StatementFailure: Error {
        let index: Int
        let error: SQLiteError
    }

    private let database: Database
    private let options: Options
    private var statementCount = 0
    private var appliedCount = 0

    /// Creates a runner for `database`.
    public init(database: Database, options: Options = Options()) {
        self.database = database
        self.options = options
    }

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
        statementCount = 0
        appliedCount = 0
        let changesBefore = database.totalChanges
        let policy = ConnectionPolicy(refusesTransactionControl: false, isSafe: options.isSafe)
        if options.isTransactional || options.isSafe { try policy.install(on: database) }
        defer { try? database.setAuthorizer(nil) }
        if options.isTransactional {
            do {
                try database.execute("BEGIN IMMEDIATE")
            } catch let error as SQLiteError {
                // A locked or read-only database: nothing of the script has been read yet.
                throw Diagnostic(
                    path: path, message: "cannot begin the script's transaction: \(error.message)", underlying: error)
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
            var result = diagnostic(
                buffer, path: path, index: failure.index, message: message, notes: notes, underlying: failure.error)
            result.reason = reason(for: refusal, error: failure.error)
            throw result
        } catch let failure as ScriptBuffer.EncodingError {
            policy.refusesTransactionControl = false
            let notes = rollBack(path: path)
            var result = diagnostic(
                buffer, path: path, index: failure.index, message: failure.message, notes: notes, underlying: nil)
            if failure.isUTF16 { result.sourceLine = nil }
            throw result
        } catch {
            policy.refusesTransactionControl = false
            database.rollbackIfNeeded()
            throw error
        }
        return Summary(statementCount: statementCount, changes: database.totalChanges - changesBefore)
    }

    // MARK: - Running

    private func runAll(_ buffer: inout ScriptBuffer, rows: ((Statement) throws -> Void)?) throws {
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

    /// Prepares and runs every statement in `buffer.bytes[start..<end]`.
    ///
    /// - Returns: `end`.
    private func runStatements(
        _ buffer: inout ScriptBuffer, from start: Int, upTo end: Int, rows: ((Statement) throws -> Void)?
    ) throws -> Int {
        let handle = try database.openHandle()
        try buffer.withTerminatedBytes(upTo: end) { terminated in
            let bytes = UnsafeBufferPointer(rebasing: terminated[..<end])
            var position = start
            while position < end {
                let first = SQLTrivia.end(in: bytes, from: position)
                guard first < end else { break }
                do {
                    try database.checkCancellation()
                } catch let error as SQLiteError {
                    throw StatementFailure(index: first, error: error)
                }
                var statement: OpaquePointer?
                var consumed = 0
                let code = terminated.withMemoryRebound(to: CChar.self) { characters in
                    let base = characters.baseAddress! + first
                    var tail: UnsafePointer<CChar>?
                    // The count includes the NUL terminator, so SQLite reads the text in place.
                    let code = sqlite3_prepare_v2(handle, base, Int32(end - first + 1), &statement, &tail)
                    consumed = tail.map { $0 - base } ?? (end - first)
                    return code
                }
                guard code == SQLITE_OK else {
                    let offset = Int(cellar_error_offset(handle))
                    sqlite3_finalize(statement)
                    throw StatementFailure(index: first + max(offset, 0), error: SQLiteError.read(from: handle, code: code))
                }
                position = first + max(consumed, 1)
                guard let statement else { continue }
                statementCount += 1
                try execute(statement, handle: handle, rows: rows, at: first)
                appliedCount += 1
            }
        }
        return end
    }

    private func execute(
        _ handle: OpaquePointer, handle connection: OpaquePointer, rows: ((Statement) throws -> Void)?, at index: Int
    )
        throws
    {
        if let rows, sqlite3_column_count(handle) > 0 {
            do {
                try rows(Statement(handle: handle, database: database))
            } catch let error as SQLiteError {
                throw StatementFailure(index: index, error: error)
            }
            return
        }
        defer { sqlite3_finalize(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_ROW { continue }
            if code == SQLITE_DONE { return }
            throw StatementFailure(index: index, error: SQLiteError.read(from: connection, code: code))
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
        } else if !database.isAutocommit {
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
        if !database.isAutocommit {
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
        case nil:
            let needsNoTransaction = options.isTransactional && error.message.contains("within a transaction")
            return needsNoTransaction ? .needsNoTransaction : nil
        }
    }

    private func diagnostic(
        _ buffer: ScriptBuffer, path: String, index: Int, message: String, notes: [String], underlying: SQLiteError?
    ) -> Diagnostic {
        Diagnostic(
            path: path, location: buffer.location(of: index), sourceLine: buffer.lineText(at: index), message: message,
            notes: notes, underlying: underlying)
    }
}

@available(*, unavailable)
extension ScriptRunner: Sendable {}
