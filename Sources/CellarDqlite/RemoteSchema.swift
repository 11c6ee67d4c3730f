import CellarKit

/// The schema of a dqlite database, copied into an empty local in-memory database by running each
/// object's own `CREATE` text in creation order, so local tools (`schemaSQL`, comparisons) read it.
package enum RemoteSchema {
    /// An in-memory database holding the same tables, indexes, views and triggers as `connection`'s,
    /// without rows.
    package static func copy(of connection: RemoteConnection) throws -> Database {
        let copy = try Database(path: ":memory:")
        let objects = try connection.query(
            "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid")
        for row in objects {
            if case .text(let sql) = row[0] { try copy.execute(sql) }
        }
        return copy
    }
}
