/// The schema of a replay at one moment, as lint compares it statement by statement: every object
/// of `sqlite_schema` (cellar's own and SQLite's internal ones left out) and each table's columns.
struct LintSchema {
    /// One object.
    struct Object {
        let type: String
        let name: String
        /// The table an index or trigger belongs to (a table's or view's own name).
        let table: String
        /// The b-tree page: it follows a table through `ALTER TABLE … RENAME`, so a rename is told
        /// from a drop and a create.
        let rootPage: Int64
        let sql: String
        /// A table's columns, as `pragma_table_xinfo` lists them.
        let columns: [String]
    }

    /// Objects by type and lowercased name (`table:wine`).
    private(set) var objects: [String: Object] = [:]
    /// The highest rowid of `sqlite_schema` when it was read: rows a `CREATE` adds come after it.
    private var lastRowID: Int64 = 0

    private static let query = """
        SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema
        WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
          AND \(Ledger.notALedger)
        """

    static func key(_ type: String, _ name: String) -> String { "\(type):\(name.lowercased())" }

    subscript(type type: String, name name: String) -> Object? { objects[Self.key(type, name)] }

    /// Objects of one type.
    func all(_ type: String) -> [Object] { objects.values.filter { $0.type == type }.sorted { $0.name < $1.name } }

    /// Reads `database`'s schema; tables whose `CREATE` text did not change since `previous` keep the
    /// columns read then.
    static func read(_ database: any SQLConnection, previous: LintSchema? = nil) throws -> LintSchema {
        var schema = LintSchema()
        for row in try database.query(query) {
            let object = try Self.object(row, previous: previous, in: database)
            schema.objects[key(object.type, object.name)] = object
        }
        schema.lastRowID = try maximumRowID(database)
        return schema
    }

    /// Adds the rows created since the schema was read (a statement that only created objects).
    ///
    /// - Returns: the objects added.
    mutating func readAdded(_ database: any SQLConnection) throws -> [Object] {
        var added: [Object] = []
        for row in try database.query(Self.query + " AND rowid > ?", [lastRowID]) {
            let object = try Self.object(row, previous: nil, in: database)
            objects[Self.key(object.type, object.name)] = object
            added.append(object)
        }
        lastRowID = try Self.maximumRowID(database)
        return added
    }

    private static func maximumRowID(_ database: any SQLConnection) throws -> Int64 {
        if case .integer(let rowID) = try database.scalar("SELECT max(rowid) FROM sqlite_schema") { return rowID }
        return 0
    }

    private static func object(_ row: Row, previous: LintSchema?, in database: any SQLConnection) throws -> Object {
        let type = row[0].ledgerText
        let name = row[1].ledgerText
        let sql = row[4].ledgerText
        var columns: [String] = []
        if type == "table" {
            if let old = previous?[type: type, name: name], old.sql == sql {
                columns = old.columns
            } else {
                columns = try database.query("SELECT name FROM pragma_table_xinfo(?)", [name]).map { $0[0].ledgerText }
            }
        }
        let rootPage: Int64 = if case .integer(let page) = row[3] { page } else { 0 }
        return Object(type: type, name: name, table: row[2].ledgerText, rootPage: rootPage, sql: sql, columns: columns)
    }
}
