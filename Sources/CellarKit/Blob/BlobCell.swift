internal import CSQLite

/// One cell addressed by schema, table, column and rowid: the SQL that ``Database/writeBlob`` runs
/// around a ``BlobHandle``.
struct BlobCell {
    let database: Database
    let schema: String
    let table: String
    let column: String
    let rowID: Int64

    /// An error naming this cell.
    func error(_ reason: BlobError.Reason) -> BlobError {
        BlobError(table: table, column: column, rowID: rowID, reason: reason)
    }

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE`, so a concurrent writer waits for the busy
    /// timeout instead of deadlocking later), or in a savepoint inside the caller's open transaction.
    func atomically(_ body: () throws -> Void) throws {
        do {
            if try database.isAutocommit {
                try database.transaction(.immediate, body)
            } else {
                try database.execute("SAVEPOINT cellar_blob")
                do {
                    try body()
                    try database.execute("RELEASE cellar_blob")
                } catch {
                    rollBackSavepoint()
                    throw error
                }
            }
        } catch let failure as SQLiteError where !failure.isInterrupt {
            throw error(.failed(failure))
        }
    }

    /// Undoes the savepoint's work and ends it; errors are ignored for the reason
    /// ``Database/rollbackIfNeeded()`` gives, and so is a pending cancellation.
    private func rollBackSavepoint() {
        let pendingCancellation = database.cancellation
        database.cancellation = nil
        defer { database.cancellation = pendingCancellation }
        try? database.execute("ROLLBACK TO cellar_blob")
        try? database.execute("RELEASE cellar_blob")
    }

    /// Sets the cell to `count` zero bytes, inserting the row when `createsRow` and it is missing.
    func setZeroBlob(count: Int, createsRow: Bool) throws {
        let target = "\(quote(schema)).\(quote(table))"
        let update = try prepare("UPDATE \(target) SET \(quote(column)) = ?1 WHERE rowid = ?2")
        try fill(update, count: count)
        guard try database.changes == 0 else { return }
        guard createsRow else { throw error(.noSuchRow) }
        let insert = try prepare("INSERT INTO \(target) (rowid, \(quote(column))) VALUES (?2, ?1)")
        try fill(insert, count: count)
    }

    private func fill(_ statement: Statement, count: Int) throws {
        do {
            try statement.bindZeroBlob(count: count, at: 1)
            try statement.bind(rowID, at: 2)
            try statement.run()
        } catch let failure as SQLiteError {
            throw error(failure.primaryCode == SQLITE_READONLY ? .readOnlyDatabase : .failed(failure))
        }
    }

    private func prepare(_ sql: String) throws -> Statement {
        do {
            return try database.prepare(sql)
        } catch let failure as SQLiteError {
            guard isWithoutRowID else { throw error(.failed(failure)) }
            // "no such column: rowid" would mislead: say what sqlite3_blob_open says.
            throw error(.failed(SQLiteError(code: SQLITE_ERROR, message: "cannot open table without rowid: \(table)")))
        }
    }

    /// Whether the table is a `WITHOUT ROWID` table, which incremental blob I/O cannot address.
    private var isWithoutRowID: Bool {
        let kind = try? database.scalar("SELECT wr FROM pragma_table_list WHERE schema = ? AND name = ?", [schema, table])
        return kind == .integer(1)
    }

    private func quote(_ name: String) -> String { IdentifierQuoting.quote(name) }
}
