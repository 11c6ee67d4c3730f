internal import CSQLite
import Glibc

extension Ledger {
    /// Where the ledger's `CREATE TABLE` sits in `main.sqlite_schema` (its rowid) and what it says, as
    /// the last check of its shape found them.
    ///
    /// The shape ``LedgerShape`` checks (the table's columns, their declared types, its key) follows
    /// from that text alone, so while the row at that rowid still holds the same text, a check would give
    /// the same answer again. A run checks the shape once and then, inside each write transaction that
    /// reads or writes the ledger, only compares that row (``holds(in:)``, one read by rowid) instead of
    /// scanning the schema for the table and reading its columns, which cost more than a small
    /// migration's own statements. Anything that changes the table changes the row: `ALTER TABLE`
    /// rewrites its text, `DROP TABLE` deletes it, a table made again under the name is a new row (or, at
    /// a reused rowid, compared by its text), and a `VACUUM` may renumber the rows; whoever made the
    /// change (a migration of the run, another process). Where the row differs, the caller checks the
    /// shape again in full, which refuses a table of another shape as before.
    struct Definition: Equatable {
        var rowid: Int64
        var sql: String

        /// Whether this is the definition cellar itself creates (``Ledger/createMigrations`` as SQLite
        /// keeps it in `sqlite_schema`), whose columns are in the order cellar wrote them and whose
        /// `version` is the rowid: a ledger of any other text (made by an older cellar, by hand, or
        /// altered since) gets statements that name its columns.
        var isCellars: Bool { sql == Ledger.createdMigrationsText }

        /// Whether `main.sqlite_schema` still holds this definition, read inside the caller's
        /// transaction. A local database reads the one value with SQLite's incremental blob I/O
        /// (<https://sqlite.org/c3ref/blob_open.html>), which compiles no SQL; another engine asks.
        func holds(in database: any SQLConnection) throws -> Bool {
            guard let local = database.localDatabase else {
                return try database.scalar("SELECT sql FROM main.sqlite_schema WHERE rowid = ?", [rowid]) == .text(sql)
            }
            var sql = sql
            return try sql.withUTF8 { try Self.schemaText(atRowID: rowid, in: local, equals: $0) }
        }

        /// Whether the `sql` column of the row `rowID` of `main.sqlite_schema` holds exactly the bytes
        /// `expected` (false when there is no such row or it holds no text), compared in place.
        private static func schemaText(
            atRowID rowID: Int64, in database: Database, equals expected: UnsafeBufferPointer<UInt8>
        ) throws -> Bool {
            let connection = try database.openHandle()
            var blob: OpaquePointer?
            let code = sqlite3_blob_open(connection, "main", "sqlite_schema", "sql", rowID, 0, &blob)
            defer { sqlite3_blob_close(blob) }
            guard code == SQLITE_OK, let blob else {
                // No such row, or a NULL or a number there (SQLite's SQLITE_ERROR): not this definition.
                if code & 0xFF == SQLITE_ERROR { return false }
                throw SQLiteError.read(from: connection, code: code)
            }
            let count = Int(sqlite3_blob_bytes(blob))
            guard count == expected.count else { return false }
            guard count > 0, let wanted = expected.baseAddress else { return true }
            return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
                let read = sqlite3_blob_read(blob, buffer.baseAddress, Int32(count), 0)
                guard read == SQLITE_OK else { throw SQLiteError.read(from: connection, code: read) }
                return memcmp(buffer.baseAddress!, wanted, count) == 0
            }
        }
    }

    /// An expression true while `main.sqlite_schema` still holds the definition bound to its two
    /// parameters (rowid, text): how an engine whose every request is a round trip compares it in the
    /// request that relies on it.
    static let definitionHoldsSQL = "(SELECT sql FROM main.sqlite_schema WHERE rowid = ?) IS ?"
}
