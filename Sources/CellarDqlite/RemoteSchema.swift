import CellarKit
import DqliteClient

/// The schema of a dqlite database, copied into an empty local in-memory database by running each
/// object's own `CREATE` text in creation order, so local tools (`schemaSQL`, comparisons, the facts
/// SQLite tells of a statement it prepares) read it.
package enum RemoteSchema {
    /// An in-memory database holding the same tables, indexes, views and triggers as `connection`'s,
    /// without rows.
    package static func copy(of connection: RemoteConnection) throws -> Database {
        try copy(of: connection.database.connection)
    }

    /// The copy, read straight from the leader (inside the transaction open there, if any).
    static func copy(of leader: DqliteConnection) throws -> Database {
        let copy = try Database(path: ":memory:")
        let objects = try leader.query(
            "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid"
        ).all()
        for row in objects {
            if case .text(let sql) = row.first { try copy.execute(sql) }
        }
        return copy
    }
}
