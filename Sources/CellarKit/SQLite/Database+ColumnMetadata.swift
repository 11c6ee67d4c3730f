internal import CSQLite

extension Database {
    /// The name of the collating sequence of `column` in `table` of the main database (`BINARY`
    /// when the column declares none), from `sqlite3_table_column_metadata`
    /// (<https://sqlite.org/c3ref/table_column_metadata.html>); nil when there is no such column.
    package func collation(ofColumn column: String, inTable table: String) throws -> String? {
        let handle = try openHandle()
        var collation: UnsafePointer<CChar>?
        let code = sqlite3_table_column_metadata(handle, "main", table, column, nil, &collation, nil, nil, nil)
        guard code == SQLITE_OK else { return nil }
        return collation.map { String(cString: $0) }
    }
}
