/// How many rows each table holds: what `lint --against` and `test --against` read from a database.
package enum TableRowCounts {
    /// Rows per table (lowercased name) of the main schema, SQLite's and cellar's own tables and
    /// virtual tables left out.
    package static func read(_ database: any SQLConnection) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for name in try tables(of: database) {
            if case .integer(let rows) = try database.scalar("SELECT count(*) FROM \(IdentifierQuoting.quote(name))") {
                counts[name.lowercased()] = Int(rows)
            }
        }
        return counts
    }

    /// The ordinary tables of the main schema, by name.
    package static func tables(of database: any SQLConnection) throws -> [String] {
        try database.query(
            """
            SELECT name FROM sqlite_schema
            WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
              AND \(Ledger.notALedger) AND sql NOT LIKE 'CREATE VIRTUAL%'
            ORDER BY name
            """
        ).map { $0[0].ledgerText }
    }

    /// The tables whose count differs between two readings, by name (nil: the table is not there; a
    /// table created or dropped empty is no change).
    package static func changes(from before: [String: Int], to after: [String: Int]) -> [(
        table: String, before: Int?, after: Int?
    )] {
        Set(before.keys).union(after.keys).sorted().compactMap { table in
            (before[table] ?? 0) == (after[table] ?? 0) ? nil : (table, before[table], after[table])
        }
    }

    /// `1,204`: a count with thousands separated, as messages show counts.
    package static func formatted(_ number: Int) -> String {
        let digits = Array(String(number))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, digit != "-", (digits.count - index) % 3 == 0, digits[index - 1] != "-" { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
