import CellarKit

/// The table and view names of a database and their columns, as completion needs them.
struct SchemaSnapshot: Sendable {
    /// Table and view names, as declared.
    var tableNames: [String]
    /// Column names, keyed by the lowercased table name.
    var columns: [String: [String]]

    /// Creates a snapshot from its parts.
    init(tables: [String: [String]]) {
        tableNames = tables.keys.sorted()
        columns = Dictionary(tables.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
    }

    /// Reads the schema of `database`'s main database (empty if it cannot be read).
    static func load(from database: Database) -> SchemaSnapshot {
        var tables: [String: [String]] = [:]
        let names =
            (try? database.query("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY name")) ?? []
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
}
