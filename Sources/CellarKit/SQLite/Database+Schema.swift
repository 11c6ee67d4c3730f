extension Database {
    /// The `CREATE` statements of the schema — tables, then indexes, views and triggers, each by name —
    /// without SQLite's internal objects, virtual tables' shadow tables (their `CREATE VIRTUAL TABLE`
    /// makes them) and cellar's own tables, every statement ending with `;`.
    ///
    /// The order is stable, so the text can be committed as `schema.sql` and diffed; CRLF line ends that
    /// a statement kept from a CRLF script are written as LF, so the text does not depend on checkouts.
    public func schemaSQL() throws -> String {
        let rows = try query(
            """
            SELECT sql FROM sqlite_schema
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
              AND \(Ledger.notALedger)
              AND name NOT IN (SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow')
            ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END, name
            """)
        return rows.map { row in
            guard case .text(let sql) = row[0] else { return "" }
            return sql.split(separator: "\r\n", omittingEmptySubsequences: false).joined(separator: "\n") + ";\n"
        }.joined()
    }
}
