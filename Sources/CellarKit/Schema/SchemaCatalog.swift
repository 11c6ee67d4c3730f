/// What SQLite says about one database's schema: its objects as `sqlite_schema` stores them, and each
/// table's columns as `pragma_table_xinfo` reports them. cellar's own tables and SQLite's internal
/// objects (`sqlite_sequence`, `sqlite_autoindex_…`, virtual tables' shadow tables) are left out.
struct SchemaCatalog {
    /// One table, index, view or trigger.
    struct Object {
        /// `table`, `index`, `view` or `trigger`.
        let type: String
        let name: String
        /// The table (or view) it belongs to; a table's or view's own name.
        let tableName: String
        /// The `CREATE` statement SQLite stored, as written from the object's name on.
        let sql: String
        /// Its `sqlite_schema` rowid: creating objects in this order is an order SQLite accepted.
        let order: Int64

        /// The drift normaliser's form of ``sql``: equal texts mean equal objects.
        var normalizedSQL: String { SchemaText.normalized(sql) }
        /// `table wines`.
        var label: String { "\(type) \(name)" }
        /// The name as SQLite compares it.
        var key: String { SchemaCatalog.key(name) }
    }

    /// One column of a table.
    struct Column {
        let name: String
        /// The declared type as written (`INTEGER`, `varchar(20)`, or empty).
        let declaredType: String
        let isNotNull: Bool
        /// The default's text as written, nil when it has none.
        let defaultText: String?
        /// Its position in the primary key from 1, 0 when not part of it.
        let primaryKeyPosition: Int
        /// 0 an ordinary column, 1 hidden (a virtual table's), 2 a virtual and 3 a stored generated column.
        let hidden: Int

        var isGenerated: Bool { hidden == 2 || hidden == 3 }
        /// Whether rows have a value of their own in it (a generated column's is computed).
        var holdsData: Bool { hidden == 0 }
        var key: String { SchemaCatalog.key(name) }
    }

    /// One table with its columns and the options `pragma_table_list` reports.
    struct Table {
        let object: Object
        let columns: [Column]
        let isWithoutRowid: Bool
        let isStrict: Bool
        let isVirtual: Bool

        var name: String { object.name }

        /// The column named `name` (ASCII case folded, as SQLite compares names).
        func column(_ name: String) -> Column? { columns.first { $0.key == SchemaCatalog.key(name) } }

        /// Whether the rowid is the INTEGER PRIMARY KEY column (<https://sqlite.org/lang_createtable.html#rowid>).
        var hasRowidAlias: Bool {
            let keys = columns.filter { $0.primaryKeyPosition > 0 }
            return !isWithoutRowid && keys.count == 1 && keys[0].declaredType.uppercased() == "INTEGER"
        }
    }

    /// Tables by ``key(_:)`` of their name.
    private(set) var tables: [String: Table] = [:]
    /// Indexes, views and triggers by ``key(_:)`` of their type and name.
    private(set) var others: [String: Object] = [:]

    /// Names compare as SQLite compares them: ASCII letters case-folded.
    static func key(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The key of an index, view or trigger in ``others``.
    static func key(type: String, name: String) -> String { "\(type) \(key(name))" }

    /// Indexes, views and triggers in the order SQLite accepted them.
    var orderedOthers: [Object] { others.values.sorted { $0.order < $1.order } }
    /// Tables in the order SQLite accepted them.
    var orderedTables: [Table] { tables.values.sorted { $0.object.order < $1.object.order } }

    /// The table named `name`, if any.
    func table(_ name: String) -> Table? { tables[Self.key(name)] }

    /// Reads the schema of `connection`'s main database: every table, or only those whose ``key(_:)``
    /// is in `tables`, and every index, view and trigger.
    ///
    /// - Throws: ``SQLiteError``.
    static func read(from connection: any SQLConnection, tables: Set<String>? = nil) throws -> SchemaCatalog {
        var catalog = SchemaCatalog()
        let listed = try connection.query("SELECT name, type, wr, strict FROM pragma_table_list WHERE schema = 'main'")
        var options: [String: (type: String, withoutRowid: Bool, strict: Bool)] = [:]
        for row in listed {
            options[key(row[0].ledgerText)] = (row[1].ledgerText, row[2] == .integer(1), row[3] == .integer(1))
        }
        let rows = try connection.query(
            """
            SELECT type, name, tbl_name, sql, rowid FROM sqlite_schema
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
              AND \(Ledger.notALedger)
            ORDER BY rowid
            """)
        for row in rows {
            guard case .integer(let order) = row[4] else { continue }
            let object = Object(
                type: row[0].ledgerText, name: row[1].ledgerText, tableName: row[2].ledgerText, sql: row[3].ledgerText,
                order: order)
            let listing = options[key(object.name)]
            if object.type == "table" {
                guard listing?.type != "shadow", tables?.contains(object.key) ?? true else { continue }
                catalog.tables[key(object.name)] = Table(
                    object: object, columns: try columns(of: object.name, in: connection),
                    isWithoutRowid: listing?.withoutRowid ?? false, isStrict: listing?.strict ?? false,
                    isVirtual: listing?.type == "virtual")
            } else {
                catalog.others[key(type: object.type, name: object.name)] = object
            }
        }
        return catalog
    }

    /// The table `name` of `connection`'s main database (ASCII case folded, as SQLite compares names),
    /// read alone: what ``read(from:tables:)`` would hold for it, in a few lookups by name rather than
    /// a read of the whole schema (the planner asks once for every table it compares). Nil when there
    /// is no such table, or it is a virtual table's shadow table.
    ///
    /// - Throws: ``SQLiteError``.
    static func table(named name: String, in connection: any SQLConnection) throws -> Table? {
        let rows = try connection.query(
            "SELECT type, name, tbl_name, sql, rowid FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE AND sql IS NOT NULL",
            [name])
        guard let row = rows.first, case .integer(let order) = row[4] else { return nil }
        let object = Object(
            type: row[0].ledgerText, name: row[1].ledgerText, tableName: row[2].ledgerText, sql: row[3].ledgerText, order: order)
        let listing = try connection.query(
            "SELECT type, wr, strict FROM pragma_table_list(?) WHERE schema = 'main'", [object.name]
        ).first
        let type = listing?[0].ledgerText
        guard type != "shadow" else { return nil }
        return Table(
            object: object, columns: try columns(of: object.name, in: connection), isWithoutRowid: listing?[1] == .integer(1),
            isStrict: listing?[2] == .integer(1), isVirtual: type == "virtual")
    }

    private static func columns(of table: String, in connection: any SQLConnection) throws -> [Column] {
        try connection.query(
            "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid", [table]
        ).map { row in
            Column(
                name: row[0].ledgerText, declaredType: row[1].ledgerText, isNotNull: row[2] == .integer(1),
                defaultText: row[3] == .null ? nil : row[3].ledgerText, primaryKeyPosition: Int(row[4].ledgerText) ?? 0,
                hidden: Int(row[5].ledgerText) ?? 0)
        }
    }
}
