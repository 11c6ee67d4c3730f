import CellarKit

/// The table and view names of a database and their columns, as completion needs them, indexed so
/// that a Tab on a schema of 10,000 tables looks up its prefix instead of reading every name.
struct SchemaSnapshot: Sendable {
    /// Table and view names, as declared, in the order of their lowercased UTF-8 bytes.
    var tableNames: [String] { tableIndex.names }
    /// Column names, keyed by the lowercased table name.
    private let columns: [String: [String]]
    private let tableIndex: PrefixIndex
    /// Every table name and every column name of every table, each once.
    private let nameIndex: PrefixIndex

    /// Creates a snapshot from its parts.
    init(tables: [String: [String]]) {
        columns = Dictionary(tables.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        tableIndex = PrefixIndex(tables.keys)
        nameIndex = PrefixIndex(Array(tables.keys) + tables.values.joined())
    }

    /// Reads the schema of `database`'s main database in one query (empty if it cannot be read).
    ///
    /// A view that no longer compiles (its table was dropped) makes `pragma_table_info` fail, and with
    /// it the whole join: then each table is read on its own, and such a view has no columns.
    static func load(from database: any SQLConnection) -> SchemaSnapshot {
        let joined = try? database.query(
            """
            SELECT m.name, p.name FROM sqlite_schema AS m LEFT JOIN pragma_table_info(m.name) AS p
            WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid
            """)
        guard let joined else { return loadTableByTable(from: database) }
        var tables: [String: [String]] = [:]
        for row in joined {
            guard let table = row.values.first?.textValue else { continue }
            let column = row.values.count > 1 ? row.values[1].textValue : nil
            tables[table, default: []].append(contentsOf: column.map { [$0] } ?? [])
        }
        return SchemaSnapshot(tables: tables)
    }

    private static func loadTableByTable(from database: any SQLConnection) -> SchemaSnapshot {
        var tables: [String: [String]] = [:]
        let names = (try? database.query("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')")) ?? []
        for row in names {
            guard let name = row.values.first?.textValue else { continue }
            let columns = (try? database.query("SELECT name FROM pragma_table_info(?1)", [name])) ?? []
            tables[name] = columns.compactMap { $0.values.first?.textValue }
        }
        return SchemaSnapshot(tables: tables)
    }

    /// The columns of the table or view named `name`, in any case.
    func columns(of name: String) -> [String]? {
        columns[name.lowercased()]
    }

    /// The table and view names that start with `prefix`, in any case.
    func tableNames(startingWith prefix: String) -> [String] {
        tableIndex.names(startingWith: prefix)
    }

    /// The table names and the column names of all tables that start with `prefix`, in any case, each
    /// once.
    func tableAndColumnNames(startingWith prefix: String) -> [String] {
        nameIndex.names(startingWith: prefix)
    }

    /// Whether `name` is, exactly, a table name or a column name.
    func containsName(_ name: String) -> Bool {
        nameIndex.contains(name)
    }
}
