/// A database's schema at one moment, kept to plan from after the database has changed: the `CREATE`
/// statement of every table, index, view and trigger of its main database, as SQLite stored it, in
/// `sqlite_schema` order (an order SQLite accepted them in). The shell keeps the schema a session
/// opened with, so that `.diff` and `.migration` plan from it to the schema the session has typed.
///
/// SQLite's own objects (`sqlite_sequence`, `sqlite_stat1`, automatic indexes) and cellar's ledger
/// tables are left out; a virtual table's shadow tables are left to its module, which creates them
/// again with the virtual table.
package struct SchemaCapture: Sendable, Equatable {
    /// One object: its type, its name and the `CREATE` statement SQLite stored.
    package struct Object: Sendable, Equatable {
        /// `table`, `index`, `view` or `trigger`.
        package let type: String
        package let name: String
        package let sql: String
    }

    /// The objects, in the order SQLite accepted them.
    package let objects: [Object]

    /// The schema of `connection`'s main database now (inside its open transaction, if any), in one
    /// query.
    ///
    /// - Throws: ``SQLiteError`` when the schema cannot be read.
    package static func capture(of connection: any SQLConnection) throws -> SchemaCapture {
        let rows = try connection.query(
            """
            SELECT type, name, sql FROM sqlite_schema
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
              AND \(Ledger.notALedger)
            ORDER BY rowid
            """)
        return SchemaCapture(
            objects: rows.map { Object(type: $0[0].ledgerText, name: $0[1].ledgerText, sql: $0[2].ledgerText) })
    }

    /// An in-memory database holding these objects and no rows, set up as `connection` is (its
    /// extensions and functions, so a virtual table's module is there), for ``SchemaPlanner`` to plan
    /// from or to.
    ///
    /// A table that exists already when its turn comes is a shadow table its virtual table's module
    /// created, and is left as the module made it.
    ///
    /// - Throws: ``SQLiteError`` when an object's statement fails there (a module the copy lacks).
    package func database(like connection: any SQLConnection) throws -> any SQLConnection {
        let copy = try connection.rehearsalDatabase(copyingContents: false)
        try copy.execute("PRAGMA foreign_keys = OFF")
        for object in objects {
            if object.type == "table",
                try copy.scalar(
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE", [object.name])
                    != .integer(0)
            {
                continue
            }
            try copy.execute(object.sql)
        }
        return copy
    }
}
