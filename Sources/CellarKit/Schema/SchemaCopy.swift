/// Empty copies of a schema, for the planner to work out and prove a plan on.
enum SchemaCopy {
    /// An in-memory database set up as `connection` was (its extensions and functions), holding the
    /// objects of `catalog` and no rows, with foreign keys off as the migrator runs a migration.
    ///
    /// Objects are created in `sqlite_schema` order, an order SQLite accepted them in; a virtual
    /// table's shadow tables come with the virtual table.
    static func empty(like connection: any SQLConnection, holding catalog: SchemaCatalog) throws -> any SQLConnection {
        let copy = try connection.rehearsalDatabase(copyingContents: false)
        try copy.execute("PRAGMA foreign_keys = OFF")
        let objects = (catalog.orderedTables.map(\.object) + catalog.orderedOthers).sorted { $0.order < $1.order }
        for object in objects {
            do {
                try copy.execute(object.sql)
            } catch let error as SQLiteError {
                throw SchemaPlanError.stepFailed(statement: object.sql, message: error.message)
            }
        }
        return copy
    }
}
