/// Writes a database as SQL text in the shape of the sqlite3 CLI's `.dump`: tables with their rows in
/// schema order, `sqlite_sequence`, then indexes, triggers and views, all inside one transaction.
///
/// It streams through one ``OutputBuffer``: each table's rows go out as they are stepped, so memory
/// stays bounded whatever the size of the database. Only the list of schema objects is held.
struct DatabaseDumper<Connection: SQLConnection> {
    /// One row of `sqlite_schema` that is a table.
    private struct Table {
        let name: String
        let sql: String
    }

    let database: Connection
    let options: DumpOptions
    var output: OutputBuffer
    private var isSchemaWritable = false

    init(database: Connection, options: DumpOptions, sink: any ByteSink) {
        self.database = database
        self.options = options
        self.output = OutputBuffer(sink: sink)
    }

    /// Writes the whole dump and flushes it to the sink.
    mutating func dump() throws {
        try checkPatterns()
        if options.includesSchema, options.wrapsInTransaction { output.append("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n") }
        let tables = try selectedTables()
        for table in tables {
            try dumpTable(table)
            try output.flushIfFull()
        }
        if !isWholeDatabase, options.includesData, !options.omitsSystemTables { try dumpSequenceRows(of: tables) }
        if options.includesSchema {
            for sql in try otherObjects() { appendStatement(sql) }
        }
        if isSchemaWritable { output.append("PRAGMA writable_schema=OFF;\n") }
        if options.includesSchema {
            if isWholeDatabase, case .integer(let version) = try database.scalar("PRAGMA user_version"), version != 0 {
                output.append("PRAGMA user_version=\(version);\n")
            }
            if options.wrapsInTransaction { output.append("COMMIT;\n") }
        }
        try output.flush()
    }

    private var isWholeDatabase: Bool { options.tablePatterns.isEmpty }

    // MARK: - Selecting objects

    /// `name LIKE ?1 ESCAPE '\' OR name LIKE ?2 …` for `column`, or `1` when every object is selected.
    private func patternCondition(column: String) -> String {
        guard !isWholeDatabase else { return "1" }
        return "("
            + options.tablePatterns.indices.map { "\(column) LIKE ?\($0 + 1) ESCAPE '\\'" }.joined(separator: " OR ") + ")"
    }

    private func checkPatterns() throws {
        for pattern in options.tablePatterns {
            let match = try database.scalar(
                "SELECT 1 FROM sqlite_schema WHERE type IN ('table', 'view') AND name LIKE ? ESCAPE '\\'", [pattern])
            if match == nil { throw DumpError.noMatchingTable(pattern: pattern) }
        }
    }

    /// Tables in the order sqlite3 dumps them: schema order, `sqlite_sequence` last.
    private func selectedTables() throws -> [Table] {
        var sql = """
            SELECT name, sql FROM sqlite_schema
            WHERE type = 'table' AND sql IS NOT NULL AND \(patternCondition(column: "name"))
            """
        if !isWholeDatabase { sql += " AND name <> 'sqlite_sequence'" }
        sql += " ORDER BY tbl_name = 'sqlite_sequence', rowid"
        return try database.query(sql, options.tablePatterns).map { row in
            Table(name: row[0].textValue, sql: row[1].textValue)
        }
    }

    /// Indexes and triggers of the selected tables and the selected views, in schema order.
    private func otherObjects() throws -> [String] {
        let sql = """
            SELECT sql FROM sqlite_schema
            WHERE sql IS NOT NULL AND type IN ('index', 'trigger', 'view')
              AND \(isWholeDatabase ? "1" : "(\(patternCondition(column: "tbl_name")) OR \(patternCondition(column: "name")))")
            ORDER BY rowid
            """
        return try database.query(sql, options.tablePatterns).map { $0[0].textValue }
    }

    // MARK: - Writing

    private mutating func appendStatement(_ sql: String) {
        appendFromDatabase(sql)
        output.append(";\n")
    }

    /// Text read from the database (a `CREATE` statement, a name): for a terminal, its control
    /// characters are escaped and its line breaks kept, as `schema` shows it; otherwise its exact bytes.
    private mutating func appendFromDatabase(_ text: String) {
        guard options.escapesControlCharacters else { return output.append(text) }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { output.append("\n") }
            output.append(ControlCharacterEscaping.escape(String(line)))
        }
    }

    private mutating func dumpTable(_ table: Table) throws {
        if table.name == "sqlite_sequence", !options.omitsSystemTables {
            guard options.includesData else { return }
            output.append("DELETE FROM sqlite_sequence;\n")
            try dumpRows(of: table.name)
        } else if table.name.hasPrefix("sqlite_stat"), !options.omitsSystemTables {
            if options.includesSchema { output.append("ANALYZE sqlite_schema;\n") }
            if options.includesData { try dumpRows(of: table.name) }
        } else if table.name.hasPrefix("sqlite_") {
            return
        } else if table.sql.hasPrefix("CREATE VIRTUAL TABLE") {
            // A virtual table has no rows of its own (its shadow tables hold them); its schema row is
            // written directly, as sqlite3 does, since CREATE VIRTUAL TABLE would also create the shadows.
            guard options.includesSchema else { return }
            if !isSchemaWritable {
                output.append("PRAGMA writable_schema=ON;\n")
                isSchemaWritable = true
            }
            output.append("INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql)VALUES('table',")
            appendFromDatabase(Self.literal(table.name) + "," + Self.literal(table.name) + ",0," + Self.literal(table.sql))
            output.append(");\n")
        } else {
            if options.includesSchema { appendCreateTable(table.sql) }
            if options.includesData { try dumpRows(of: table.name) }
        }
    }

    /// sqlite3 writes `CREATE TABLE IF NOT EXISTS` for a table whose name is quoted.
    private mutating func appendCreateTable(_ sql: String) {
        let prefix = "CREATE TABLE "
        if sql.hasPrefix(prefix), let next = sql.dropFirst(prefix.count).first, next == "\"" || next == "'" {
            appendStatement("CREATE TABLE IF NOT EXISTS " + sql.dropFirst(prefix.count))
        } else {
            appendStatement(sql)
        }
    }

    /// The columns an `INSERT` without a column list fills: every column but the generated ones;
    /// with ``DumpOptions/preservesRowids``, the rowid first under a name no column has (`rowid`,
    /// else `_rowid_`, else `oid`, as sqlite3 picks it), for a table whose rowid is not a column.
    private func insertableColumns(of table: String) throws -> (sql: String, keepsRowid: Bool) {
        let rows = try database.query(
            "SELECT name, type, pk FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid", [table])
        let columns = rows.map { Self.quoted($0[0].textValue) }.joined(separator: ",")
        guard options.preservesRowids, let rowid = try rowidName(of: table, rows: rows) else { return (columns, false) }
        return ("\(rowid) AS \(rowid)," + columns, true)
    }

    /// The name the rowid of `table` goes by in a dump that keeps it; nil when the table has none apart
    /// from its columns (an `INTEGER PRIMARY KEY` is it) or none at all (`WITHOUT ROWID`).
    private func rowidName(of table: String, rows: [Row]) throws -> String? {
        let keys = rows.filter { $0[2] != .integer(0) }
        if keys.count == 1, keys[0][1].textValue.lowercased() == "integer" {
            // INTEGER PRIMARY KEY is the rowid, unless it is DESC (or the table has no rowid): then
            // SQLite keeps an index for it.
            let index = try database.scalar("SELECT 1 FROM pragma_index_list(?) WHERE origin = 'pk'", [table])
            if index == nil { return nil }
        }
        let names = Set(rows.map { $0[0].textValue.lowercased() })
        // sqlite3 tries only the first of its three names that no column has.
        guard let candidate = ["rowid", "_rowid_", "oid"].first(where: { !names.contains($0) }) else { return nil }
        do {
            _ = try database.prepareSingle("SELECT \(candidate) FROM \(Self.quoted(table)) LIMIT 0")
            return candidate
        } catch is SQLiteError {
            return nil
        }
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }

    private mutating func dumpRows(of table: String) throws {
        let columns = try insertableColumns(of: table)
        let statement = try database.prepareSingle("SELECT \(columns.sql) FROM \(Self.quoted(table))")
        // A column list only when the rowid is kept, as sqlite3 writes it.
        var renderOptions = RenderOptions(
            mode: .insert, showsHeaders: columns.keepsRowid, escapesControlCharacters: options.escapesControlCharacters,
            insertTableName: table)
        renderOptions.insertKeepsNewlines = options.keepsNewlines
        var writer = SQLLiteralRowWriter(isInsert: true, options: renderOptions)
        var job = StreamJob(statement: statement)
        _ = try job.run(&writer, output: &output)
    }

    /// For a dump of some tables: their `sqlite_sequence` rows, replacing only theirs.
    private mutating func dumpSequenceRows(of tables: [Table]) throws {
        guard try database.scalar("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_sequence'") != nil else { return }
        let statement = try database.prepareSingle("SELECT seq FROM sqlite_sequence WHERE name = ?")
        for table in tables {
            try statement.reset()
            try statement.bind(table.name, at: 1)
            guard try statement.step() else { continue }
            let name = Self.literal(table.name)
            appendFromDatabase("DELETE FROM sqlite_sequence WHERE name=\(name);\n")
            appendFromDatabase("INSERT INTO sqlite_sequence VALUES(\(name),\(statement.int64(at: 0)));\n")
        }
    }

    /// `text` as an SQL string literal.
    private static func literal(_ text: String) -> String {
        "'" + text.replacing("'", with: "''") + "'"
    }
}

extension Value {
    /// The text of a text value; empty for any other.
    fileprivate var textValue: String {
        if case .text(let text) = self { return text }
        return ""
    }
}
