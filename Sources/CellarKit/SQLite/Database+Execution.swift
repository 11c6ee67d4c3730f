internal import CSQLite

extension Database {
    /// Prepares one statement.
    ///
    /// - Throws: ``SQLiteError`` with the offset SQLite gives, or when `sql` holds no statement.
    public func prepare(_ sql: String) throws -> Statement {
        try withStatements(in: sql) { cursor in
            guard let prepared = try cursor.next() else {
                throw SQLiteError(code: SQLITE_MISUSE, message: "no SQL statement to prepare", offset: 0)
            }
            return prepared.statement
        }
    }

    /// Runs every statement of `sql`, one at a time, discarding rows (what `sqlite3_exec` does).
    ///
    /// `arguments` are used up across the statements: each takes as many as it has parameters, in order.
    ///
    /// ```swift
    /// try db.execute("INSERT INTO wineries (name) VALUES (?); INSERT INTO wineries (name) VALUES (?)", ["Ridge", "Tablas"])
    /// ```
    /// - Throws: ``SQLiteError`` whose `offset` points into `sql` at the failing place, including
    ///   `SQLITE_RANGE` when an argument is missing or left over (a surplus is found after the last
    ///   statement ran: wrap the call in ``transaction(_:_:)`` to make it all or nothing).
    public func execute(_ sql: String, _ arguments: [any ValueConvertible] = []) throws {
        try (self as any SQLConnection).execute(sql, arguments)
    }

    /// Runs every statement of `sql` and returns the rows of all of them; `arguments` are used up
    /// across the statements, as in ``execute(_:_:)``.
    ///
    /// ```swift
    /// let wines = try db.query("SELECT name, rating FROM wine WHERE rating >= ?", [4])
    /// let firstName: String? = try wines.first?.decode("name")
    /// ```
    /// - Throws: ``SQLiteError`` whose `offset` points into `sql` at the failing place.
    public func query(_ sql: String, _ arguments: [any ValueConvertible] = []) throws -> [Row] {
        try (self as any SQLConnection).query(sql, arguments)
    }

    /// The first column of the first row of `sql`, or nil when it returns no row.
    public func scalar(_ sql: String, _ arguments: [any ValueConvertible] = []) throws -> Value? {
        try query(sql, arguments).first?.values.first
    }
}
