/// Runs the SQL of one section (a migration's up or down part, or a seed) statement by statement on
/// the migrator's connection, turning failures into located diagnostics.
struct SectionRunner {
    let database: any SQLConnection
    /// The rehearsal this runs in, if any (a dry run, a replay): what would write outside the
    /// in-memory database is refused.
    var rehearsal: ConnectionPolicy.Rehearsal?
    /// Called every few thousand SQLite instructions with the milliseconds elapsed, for progress.
    let onProgress: ((Double) -> Void)?

    /// What running a section did.
    struct Result {
        var statementCount = 0
        var changedRows = 0
    }

    /// Runs `sql`, which starts at byte `startOffset` of `text` (the whole file at `path`).
    ///
    /// - Parameter isGuarded: whether transaction control is refused (inside cellar's transaction).
    /// - Parameter refusesForeignKeysOn: whether `PRAGMA foreign_keys = ON` is refused too (a migration's
    ///   transaction, where it would silently do nothing).
    /// - Throws: ``MigrationError/failed(_:)`` with a diagnostic located in the file.
    func run(
        _ sql: String, startOffset: Int, text: String, path: String, isGuarded: Bool, refusesForeignKeysOn: Bool = false
    ) throws -> Result {
        let policy = ConnectionPolicy(refusesTransactionControl: isGuarded, isSafe: false)
        policy.rehearsal = rehearsal
        policy.refusesForeignKeysOn = isGuarded && refusesForeignKeysOn
        do {
            return try database.withPolicy(policy) {
                try withProgress { try runStatements(sql, on: database) }
            }
        } catch let error as SQLiteError {
            var message = error.message
            if case .transactionControl(let operation) = policy.lastRefusal {
                message =
                    "\(operation) is not allowed here: cellar runs this in a transaction of its own and commits it "
                    + "(a migration that manages its own transactions needs '-- migrate:up transaction:false')"
            }
            if case .outsideRehearsal(let why) = policy.lastRefusal { message = why }
            if case .ignoredInTransaction(let what) = policy.lastRefusal {
                message =
                    "\(what) cannot change inside a transaction (SQLite would silently ignore it), and cellar runs this "
                    + "in one (a migration that sets it needs '-- migrate:up transaction:false')"
            }
            throw MigrationError.failed(
                Diagnostic(error, path: path, in: SourceText(text, baseOffset: startOffset), message: message))
        }
    }

    private func runStatements(_ sql: String, on connection: some SQLConnection) throws -> Result {
        var result = Result()
        let changesBefore = try connection.totalChanges
        try connection.withStatements(in: sql) { cursor in
            while true {
                do {
                    try connection.checkCancellation()
                } catch var error as SQLiteError {
                    error.offset = cursor.nextStatementOffset
                    throw error
                }
                guard let prepared = try cursor.next() else { break }
                try cursor.run(prepared)
                result.statementCount += 1
            }
        }
        result.changedRows = try connection.totalChanges - changesBefore
        return result
    }

    private func withProgress<Value>(_ body: () throws -> Value) throws -> Value {
        guard let onProgress else { return try body() }
        let start = WallClock.milliseconds()
        var lastReport = start
        return try database.withProgressHandler(
            every: 10_000,
            {
                let now = WallClock.milliseconds()
                if now - lastReport >= 250 {
                    lastReport = now
                    onProgress(now - start)
                }
                return false
            }, body)
    }

    /// The rows of `PRAGMA foreign_key_check`.
    static func foreignKeyViolations(in database: any SQLConnection) throws -> [ForeignKeyViolation] {
        try ForeignKeyCheck.violations(in: database)
    }
}
