import CellarKit
import Glibc

/// sqlite3's `.stats`, `.timeout`, `.fullschema`, `.dbinfo` and `.lint fkey-indexes`.
extension ShellSession {
    // MARK: - Per statement

    /// `.stats on`: SQLite's counters for the statement that ran (`counters`) and the connection, in
    /// sqlite3's words.
    func showStats(_ counters: StatementCounters) throws {
        let memory = Database.memoryUsed
        let connection = try database.counters
        let lines: [(String, String)] = [
            ("Memory Used:", "\(memory.current) (max \(memory.highest)) bytes"),
            ("Lookaside Slots Used:", "\(connection.lookasideUsed) (max \(connection.lookasideHighest))"),
            ("Pager Heap Usage:", "\(connection.pagerHeap) bytes"), ("Page cache hits:", "\(connection.cacheHits)"),
            ("Page cache misses:", "\(connection.cacheMisses)"), ("Page cache writes:", "\(connection.cacheWrites)"),
            ("Page cache spills:", "\(connection.cacheSpills)"), ("Schema Heap Usage:", "\(connection.schemaHeap) bytes"),
            ("Statement Heap/Lookaside Usage:", "\(connection.statementHeap) bytes"),
            ("Fullscan Steps:", "\(counters.fullscanSteps)"), ("Sort Operations:", "\(counters.sortOperations)"),
            ("Autoindex Inserts:", "\(counters.autoindexInserts)"), ("Virtual Machine Steps:", "\(counters.virtualMachineSteps)"),
            ("Reprepare operations:", "\(counters.reprepares)"), ("Number of times run:", "\(counters.runs)"),
            ("Memory used by prepared stmt:", "\(counters.memoryUsed)"),
        ]
        for (label, value) in lines {
            writeOutput(label + String(repeating: " ", count: max(37 - label.count, 1)) + value)
        }
    }

    // MARK: - The connection

    /// `.timeout MS`: how long to wait for another connection's lock (no argument: not at all).
    func setTimeout(_ command: DotCommandLine) throws {
        // As sqlite3: no argument, or one that is not a number, is 0 (do not wait).
        let milliseconds = DotCommandLine.integerValue(command.arguments.first ?? "0")
        try database.setBusyTimeout(Int32(max(0, min(milliseconds, Int64(Int32.max)))))
    }

    // MARK: - The schema

    /// `.fullschema`: the schema, then the `ANALYZE` statistics that shape the query plans.
    func showFullSchema() throws {
        let rows = try connection.query(
            "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_stat%' ESCAPE '\\' ORDER BY rowid")
        for row in rows {
            guard let sql = row.values.first?.textValue else { continue }
            writeOutput(shownKeepingLayout(sql) + ";")
        }
        let statTables = try connection.query(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('sqlite_stat1', 'sqlite_stat4') ORDER BY name"
        ).compactMap { $0.values.first?.textValue }
        guard !statTables.isEmpty else {
            writeOutput("/* No STAT tables available */")
            return
        }
        writeOutput("ANALYZE sqlite_schema;")
        for table in statTables {
            let columns = table == "sqlite_stat1" ? ["tbl", "idx", "stat"] : ["tbl", "idx", "neq", "nlt", "ndlt", "sample"]
            let quotedColumns = columns.map { "quote(\($0))" }.joined(separator: " || ',' || ")
            for row in try connection.query("SELECT \(quotedColumns) FROM \(table) ORDER BY rowid") {
                writeOutput(shown("INSERT INTO \(table) VALUES(\(row.values.first?.textValue ?? ""));"))
            }
        }
        writeOutput("ANALYZE sqlite_schema;")
    }

    /// `.lint fkey-indexes`: the foreign keys whose child columns no index starts with (each a
    /// full scan of the child table when a parent row changes), with the index that would serve.
    func lint(_ command: DotCommandLine) throws {
        // As sqlite3, an unknown sub-command is answered with the list of them, not an error.
        guard command.arguments == ["fkey-indexes"] else {
            io.printError("Usage: .lint sub-command ?switches...?\nWhere sub-commands are:\n    fkey-indexes")
            return
        }
        // As sqlite3: one line per foreign key, by child table, whose lookup SQLite would not make with
        // an index (asked with EXPLAIN QUERY PLAN, so a partial index or one of another collation does
        // not count), with the CREATE INDEX that would serve it.
        let keys = try connection.query(
            """
            SELECT s.name, f.id, f."table", f."from", COALESCE(f."to", p.name)
            FROM sqlite_schema AS s, pragma_foreign_key_list(s.name) AS f
            LEFT JOIN pragma_table_info AS p ON (p.pk - 1 = f.seq AND p.arg = f."table")
            ORDER BY s.name, f.id, f.seq
            """)
        var grouped: [(child: String, parent: String, from: [String], to: [String])] = []
        var last: (String, Int64)?
        for row in keys {
            guard let child = row.values[0].textValue, case .integer(let id) = row.values[1] else { continue }
            if last.map({ $0 != (child, id) }) ?? true {
                grouped.append((child, row.values[2].textValue ?? "", [], []))
                last = (child, id)
            }
            grouped[grouped.count - 1].from.append(row.values[3].textValue ?? "")
            grouped[grouped.count - 1].to.append(row.values[4].textValue ?? "")
        }
        for key in grouped where try !isServedByAnIndex(key) {
            let columns = zip(key.from, key.to).map { from, to in
                Self.quoted(literal: from) + collateClause(parent: key.parent, to, child: key.child, from)
            }
            let name = Self.quoted(literal: ([key.child] + key.from).joined(separator: "_"))
            let target = key.parent + "(" + key.to.joined(separator: ",") + ")"
            writeOutput(
                shown(
                    "CREATE INDEX \(name) ON \(Self.quoted(literal: key.child))(\(columns.joined(separator: ", "))); --> \(target)"
                ))
        }
    }

    /// Whether SQLite looks up the child rows of a parent key with an index (or the rowid).
    private func isServedByAnIndex(_ key: (child: String, parent: String, from: [String], to: [String])) throws -> Bool {
        let terms = zip(key.from, key.to).map { from, to in
            IdentifierQuoting.quote(key.child) + "." + IdentifierQuoting.quote(from) + "=?"
                + collateClause(parent: key.parent, to, child: key.child, from)
        }
        let plan = try connection.query(
            "EXPLAIN QUERY PLAN SELECT 1 FROM \(IdentifierQuoting.quote(key.child)) WHERE " + terms.joined(separator: " AND "),
            Array(repeating: Value.null, count: terms.count))
        guard let detail = plan.first?.values.last?.textValue else { return false }
        let covering =
            "SEARCH \(key.child) USING COVERING INDEX *(" + key.from.map { _ in "*=?" }.joined(separator: " AND ") + ")"
        let served = try connection.query(
            "SELECT ?1 GLOB ?2 OR ?1 GLOB 'SEARCH * USING INTEGER PRIMARY KEY (rowid=?)'", [detail, covering])
        return served.first?.values.first == .integer(1)
    }

    /// ` COLLATE name` when the parent column's collation differs from the child column's (the index
    /// must use the parent's for SQLite to use it), else nothing.
    private func collateClause(parent: String, _ parentColumn: String, child: String, _ childColumn: String) -> String {
        guard let parentCollation = try? connection.collation(ofColumn: parentColumn, inTable: parent),
            let childCollation = try? connection.collation(ofColumn: childColumn, inTable: child),
            parentCollation.lowercased() != childCollation.lowercased()
        else { return "" }
        return " COLLATE " + parentCollation
    }

    /// `text` as an SQL string literal, as sqlite3's `quote()` writes a name in `.lint`'s output.
    private static func quoted(literal text: String) -> String {
        "'" + text.replacingAll("'", with: "''") + "'"
    }
}

extension ShellSession {
    /// `.dbinfo`: the database file's header fields and schema counts, in sqlite3's layout.
    func showDatabaseInfo() throws {
        guard case .text(let file) = try database.scalar("SELECT file FROM pragma_database_list WHERE name = 'main'"),
            !file.isEmpty
        else { throw DotCommandError(".dbinfo reads the database file's header; this database has no file") }
        let header = try Self.header(of: file)
        func integer(_ offset: Int) -> UInt32 {
            header[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        let pageSize = Int(header[16]) << 8 | Int(header[17])
        var lines: [(String, String)] = [
            ("database page size:", "\(pageSize == 1 ? 65536 : pageSize)"), ("write format:", "\(header[18])"),
            ("read format:", "\(header[19])"), ("reserved bytes:", "\(header[20])"),
        ]
        let fields = [
            ("file change counter:", 24), ("database page count:", 28), ("freelist page count:", 36),
            ("schema cookie:", 40), ("schema format:", 44), ("default cache size:", 48), ("autovacuum top root:", 52),
            ("incremental vacuum:", 64), ("text encoding:", 56), ("user version:", 60), ("application id:", 68),
            ("software version:", 96),
        ]
        for (label, offset) in fields {
            var value = "\(integer(offset))"
            if offset == 56 { value += [1: " (utf8)", 2: " (utf16le)", 3: " (utf16be)"][integer(offset)] ?? "" }
            lines.append((label, value))
        }
        for (label, type) in [
            ("number of tables:", "table"), ("number of indexes:", "index"), ("number of triggers:", "trigger"),
            ("number of views:", "view"),
        ] {
            let count = try database.scalar("SELECT count(*) FROM sqlite_schema WHERE type = ?", [type])
            lines.append((label, count.map(Self.plain) ?? "0"))
        }
        let size = try database.scalar("SELECT total(length(sql)) FROM sqlite_schema")
        lines.append(("schema size:", size.map(Self.plain) ?? "0"))
        for (label, value) in lines {
            writeOutput(label + String(repeating: " ", count: max(20 - label.count, 0)) + " " + value)
        }
    }

    private static func plain(_ value: Value) -> String {
        switch value {
        case .integer(let integer): String(integer)
        case .real(let real): String(Int64(real))
        default: "0"
        }
    }

    /// The first 100 bytes of the database file at `path`.
    private static func header(of path: String) throws -> [UInt8] {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw DotCommandError("cannot read '\(path)': \(SystemError(operation: "open", code: errno))")
        }
        defer { Glibc.close(descriptor) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, 100) }
        guard count == 100 else { throw DotCommandError("'\(path)' has no database header yet (it is empty)") }
        return header
    }
}
