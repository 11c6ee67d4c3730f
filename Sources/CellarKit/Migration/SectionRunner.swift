/// Runs the SQL of one section (a migration's up or down part, or a seed) statement by statement on
/// the migrator's connection, turning failures into located diagnostics.
struct SectionRunner {
    let database: Database
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
    /// - Throws: ``MigrationError/failed(_:)`` with a diagnostic located in the file.
    func run(
        _ sql: String, startOffset: Int, text: String, path: String, isGuarded: Bool
    ) throws -> Result {
        let policy = ConnectionPolicy(refusesTransactionControl: true, isSafe: false)
        if isGuarded { try policy.install(on: database) }
        defer { if isGuarded { try? policy.uninstall(from: database) } }
        try installProgress()
        defer { try? database.setProgressHandler(every: 0, nil) }
        var result = Result()
        let changesBefore = database.totalChanges
        var cursor = StatementCursor(database: database, sql: sql)
        do {
            while let prepared = try cursor.next() {
                try cursor.run(prepared)
                result.statementCount += 1
            }
        } catch let error as SQLiteError {
            var message = error.message
            if case .transactionControl(let operation) = policy.lastRefusal {
                message =
                    "\(operation) is not allowed here: cellar runs this in a transaction of its own and commits it "
                    + "(a migration that manages its own transactions needs '-- migrate:up transaction:false')"
            }
            let diagnostic = Diagnostic(
                path: path, text: text, byteOffset: startOffset + (error.offset ?? 0), message: message, underlying: error)
            throw MigrationError.failed(diagnostic)
        }
        result.changedRows = database.totalChanges - changesBefore
        return result
    }

    private func installProgress() throws {
        guard let onProgress else { return }
        let start = WallClock.milliseconds()
        var lastReport = start
        try database.setProgressHandler(every: 10_000) {
            let now = WallClock.milliseconds()
            if now - lastReport >= 250 {
                lastReport = now
                onProgress(now - start)
            }
            return false
        }
    }

    /// The rows of `PRAGMA foreign_key_check`.
    static func foreignKeyViolations(in database: Database) throws -> [ForeignKeyViolation] {
        try database.query("PRAGMA foreign_key_check").map { row in
            let rowid: Int64? = if case .integer(let id) = row[1] { id } else { nil }
            return ForeignKeyViolation(
                table: row[0].ledgerText, rowid: rowid, parent: row[2].ledgerText, foreignKeyIndex: row[3].ledgerInteger)
        }
    }
}
