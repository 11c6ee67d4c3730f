/// `PRAGMA foreign_key_check` with every violation told apart: SQLite reports a `WITHOUT ROWID` table's
/// orphans without a rowid (<https://sqlite.org/pragma.html#pragma_foreign_key_check>), so for those the
/// orphan rows are found again by their foreign key and named by their primary key.
enum ForeignKeyCheck {
    /// An SQL expression that is 0 only when no table of `main` or `temp` declares a foreign key: a
    /// declaration always holds the word `REFERENCES`, which SQLite keeps in the table's SQL text
    /// (`ALTER TABLE … ADD COLUMN` included). `instr` of the lowered text, since `LIKE` obeys
    /// `PRAGMA case_sensitive_like`.
    static let anyDeclarationSQL = """
        EXISTS (SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND instr(lower(sql), 'references') > 0
        UNION ALL SELECT 1 FROM temp.sqlite_schema WHERE type = 'table' AND instr(lower(sql), 'references') > 0)
        """

    /// Whether running `sql` may declare a foreign key: it holds `references` in any case, or
    /// `writable_schema`, through which a table's SQL could be rewritten without that word in sight. A
    /// mention inside a comment or string counts too; the check then runs when it was not needed.
    static func mayDeclareForeignKeys(_ sql: String) -> Bool {
        var text = sql
        // One pass over the bytes, ASCII letters in any case (SQLite's keywords are ASCII): a `String`
        // search of the lowered text cost more than the rest of a remote migration's own work.
        return text.withUTF8 { bytes in
            containsWord(references, in: bytes) || containsWord(writableSchema, in: bytes)
        }
    }

    private static let references = Array("references".utf8)
    private static let writableSchema = Array("writable_schema".utf8)

    /// Whether `bytes` holds `word` (lower-case ASCII) in any case.
    private static func containsWord(_ word: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= word.count, let first = word.first else { return false }
        var start = 0
        while start <= bytes.count - word.count {
            if SQLLexer.lowercased(bytes[start]) == first {
                var matched = 1
                while matched < word.count, SQLLexer.lowercased(bytes[start + matched]) == word[matched] { matched += 1 }
                if matched == word.count { return true }
            }
            start += 1
        }
        return false
    }

    /// Every violation in the database.
    static func violations(in database: any SQLConnection) throws -> [ForeignKeyViolation] {
        var result: [ForeignKeyViolation] = []
        var keyless: [(table: String, parent: String, index: Int64)] = []
        for row in try database.query("PRAGMA foreign_key_check") {
            let table = row[0].ledgerText
            let parent = row[2].ledgerText
            let index = row[3].ledgerInteger
            if case .integer(let rowid) = row[1] {
                result.append(ForeignKeyViolation(table: table, rowid: rowid, parent: parent, foreignKeyIndex: index))
            } else if !keyless.contains(where: { $0.table == table && $0.index == index }) {
                keyless.append((table, parent, index))
            }
        }
        for key in keyless {
            for childKey in try orphanKeys(table: key.table, parent: key.parent, foreignKey: key.index, in: database) {
                result.append(
                    ForeignKeyViolation(
                        table: key.table, rowid: nil, parent: key.parent, foreignKeyIndex: key.index, childKey: childKey))
            }
        }
        return result
    }

    /// The primary keys, as SQL text, of the rows of `table` whose foreign key number `foreignKey` has no
    /// parent row: non-NULL in every column (MATCH SIMPLE) and matching no row of `parent`.
    private static func orphanKeys(
        table: String, parent: String, foreignKey: Int64, in database: any SQLConnection
    ) throws -> [String] {
        let pairs = try database.query(
            "SELECT \"from\", \"to\" FROM pragma_foreign_key_list(?) WHERE id = ? ORDER BY seq", [table, foreignKey])
        let parentKey = try primaryKey(of: parent, in: database)
        let childKey = try primaryKey(of: table, in: database)
        guard !pairs.isEmpty, !childKey.isEmpty else { return [] }
        var conditions: [String] = []
        var matches: [String] = []
        for (position, pair) in pairs.enumerated() {
            let from = "c." + IdentifierQuoting.quote(pair[0].ledgerText)
            let to = pair[1] == .null ? (position < parentKey.count ? parentKey[position] : "rowid") : pair[1].ledgerText
            conditions.append("\(from) IS NOT NULL")
            matches.append("p.\(IdentifierQuoting.quote(to)) = \(from)")
        }
        let columns = childKey.map { "c." + IdentifierQuoting.quote($0) }.joined(separator: ", ")
        let sql = """
            SELECT \(columns) FROM main.\(IdentifierQuoting.quote(table)) AS c
            WHERE \(conditions.joined(separator: " AND "))
            AND NOT EXISTS (SELECT 1 FROM main.\(IdentifierQuoting.quote(parent)) AS p WHERE \(matches.joined(separator: " AND ")))
            ORDER BY \(columns)
            """
        let names = "(" + childKey.joined(separator: ", ") + ")"
        return try database.query(sql).map { row in
            "\(names) = (" + row.values.map(literal).joined(separator: ", ") + ")"
        }
    }

    /// The table's primary-key columns in key order.
    private static func primaryKey(of table: String, in database: any SQLConnection) throws -> [String] {
        try database.query("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", [table]).map {
            $0[0].ledgerText
        }
    }

    /// `value` as an SQL literal: `'it''s'`, `42`, `X'00ff'`, `NULL`.
    private static func literal(_ value: Value) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let integer): String(integer)
        case .real(let real): String(real)
        case .text(let text): "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        case .blob(let bytes): "X'" + HexEncoding.string(bytes) + "'"
        }
    }
}
