internal import CSQLite

extension Database {
    /// Prepares one statement.
    ///
    /// - Throws: ``SQLiteError`` with the offset SQLite gives, or when `sql` holds no statement.
    public func prepare(_ sql: String) throws -> Statement {
        var statements = StatementCursor(database: self, sql: sql)
        guard let prepared = try statements.next() else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "no SQL statement to prepare", sql: sql, offset: 0)
        }
        return prepared.statement
    }

    /// Runs every statement of `sql`, one at a time, discarding rows (what `sqlite3_exec` does).
    ///
    /// Parameters, if any, are bound to the first statement.
    /// - Throws: ``SQLiteError`` whose `offset` points into `sql` at the failing place.
    public func execute(_ sql: String, _ arguments: [any ValueConvertible] = []) throws {
        var statements = StatementCursor(database: self, sql: sql)
        var isFirst = true
        while let prepared = try statements.next() {
            if isFirst { try prepared.statement.bind(arguments) }
            isFirst = false
            try statements.run(prepared)
        }
    }

    /// Runs every statement of `sql` and returns the rows of all of them.
    ///
    /// ```swift
    /// let wines = try db.query("SELECT name, rating FROM wine WHERE rating >= ?", [4])
    /// let firstName = wines.first?["name"]
    /// ```
    /// - Throws: ``SQLiteError`` whose `offset` points into `sql` at the failing place.
    public func query(_ sql: String, _ arguments: [any ValueConvertible] = []) throws -> [Row] {
        var statements = StatementCursor(database: self, sql: sql)
        var rows: [Row] = []
        var isFirst = true
        while let prepared = try statements.next() {
            if isFirst { try prepared.statement.bind(arguments) }
            isFirst = false
            let columns = prepared.statement.columnNames
            try statements.run(prepared) { statement in
                rows.append(Row(columns: columns, values: statement.values))
            }
        }
        return rows
    }

    /// The first column of the first row of `sql`, or nil when it returns no row.
    public func scalar(_ sql: String, _ arguments: [any ValueConvertible] = []) throws -> Value? {
        try query(sql, arguments).first?.values.first
    }
}
