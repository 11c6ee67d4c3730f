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
    ///
    /// A table that exists in the copy already when its turn comes is a shadow table that a virtual
    /// table's module created with the virtual table (an FTS5 table's `_data`, `_idx`, …): it is left
    /// as the module made it, since creating it again fails with "table already exists".
    static func copy(of leader: DqliteConnection) throws -> Database {
        let copy = try Database(path: ":memory:")
        let objects = try leader.query(
            "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid"
        ).all()
        for row in objects {
            guard row.count == 3, case .text(let type) = row[0], case .text(let name) = row[1],
                case .text(let sql) = row[2]
            else { continue }
            if type == "table",
                try copy.scalar(
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE", [name])
                    != .integer(0)
            {
                continue
            }
            try copy.execute(sql)
        }
        return copy
    }
}
