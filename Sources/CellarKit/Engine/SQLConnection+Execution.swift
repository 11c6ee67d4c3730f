internal import CSQLite

/// Arguments bound across the statements of one text: each statement takes as many as it has
/// parameters, in order; a statement left short, or arguments left over at the end, is an error.
struct ArgumentQueue {
    private let arguments: [any ValueConvertible]
    private var next = 0

    init(_ arguments: [any ValueConvertible]) { self.arguments = arguments }

    /// Binds the next arguments to `statement`'s parameters.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_RANGE`) when fewer arguments are left than it has parameters.
    mutating func bind(to statement: some SQLStatement, at offset: Int) throws {
        let count = statement.parameterCount
        guard count > 0 else { return }
        guard next + count <= arguments.count else {
            let left = arguments.count - next
            throw SQLiteError(
                code: SQLITE_RANGE,
                message: "missing argument: the statement has \(count) parameter\(count == 1 ? "" : "s") "
                    + "and \(left) argument\(left == 1 ? " is" : "s are") left",
                offset: offset)
        }
        for index in 0..<count { try statement.bind(arguments[next + index], at: index + 1) }
        next += count
    }

    /// Throws when arguments were left unused after the last statement.
    func checkUsedUp() throws {
        guard next < arguments.count else { return }
        let surplus = arguments.count - next
        throw SQLiteError(
            code: SQLITE_RANGE,
            message: "\(surplus) argument\(surplus == 1 ? " was" : "s were") left over: the statements have \(next) "
                + "parameter\(next == 1 ? "" : "s") in all")
    }
}

/// Running SQL text on any engine: what `Database.execute` and `query` do, shared by the migrator,
/// the ledger and the seeder whatever connection they work on.
extension SQLConnection {
    /// Runs every statement of `sql`, discarding rows; `arguments` are used up across the statements.
    ///
    /// - Throws: ``SQLiteError`` whose `offset` points into `sql`, including `SQLITE_RANGE` for a
    ///   missing or surplus argument (a surplus is found after the last statement ran).
    package func execute(_ sql: String, _ arguments: [any ValueConvertible] = []) throws {
        var queue = ArgumentQueue(arguments)
        try withStatements(in: sql) { cursor in
            while let prepared = try cursor.next() {
                try queue.bind(to: prepared.statement, at: prepared.startOffset)
                try cursor.run(prepared)
            }
            try queue.checkUsedUp()
        }
    }

    /// Runs every statement of `sql` and returns the rows of all of them; `arguments` are used up
    /// across the statements.
    package func query(_ sql: String, _ arguments: [any ValueConvertible] = []) throws -> [Row] {
        var queue = ArgumentQueue(arguments)
        var rows: [Row] = []
        try withStatements(in: sql) { cursor in
            while let prepared = try cursor.next() {
                try queue.bind(to: prepared.statement, at: prepared.startOffset)
                let columns = prepared.statement.columnNames
                try cursor.run(prepared) { statement in
                    rows.append(Row(columns: columns, values: statement.values))
                }
            }
            try queue.checkUsedUp()
        }
        return rows
    }

    /// The one statement of `sql`, prepared to be stepped (and reset and stepped again) by the caller.
    ///
    /// - Throws: ``SQLiteError`` when `sql` holds no statement or cannot be prepared.
    package func prepareSingle(_ sql: String) throws -> PreparedStatement {
        let statement = try withStatements(in: sql) { cursor in try cursor.next()?.statement }
        guard let statement else { throw SQLiteError(code: SQLITE_MISUSE, message: "no SQL statement to prepare", sql: sql) }
        return statement
    }

    /// The first column of the first row of `sql`, or nil when it returns no row.
    package func scalar(_ sql: String, _ arguments: [any ValueConvertible] = []) throws -> Value? {
        try query(sql, arguments).first?.values.first
    }

    /// Runs `body` in a transaction that commits when `body` returns and rolls back when it throws.
    @discardableResult
    package func transaction<Result>(_ kind: TransactionKind = .deferred, _ body: () throws -> Result) throws -> Result {
        try execute("BEGIN \(kind.rawValue)")
        let result: Result
        do {
            result = try body()
            try execute("COMMIT")
        } catch {
            rollbackIfNeeded()
            throw error
        }
        return result
    }

    /// Rolls back the open transaction, if any.
    ///
    /// A failed statement may already have rolled the transaction back (`SQLITE_FULL`, `SQLITE_IOERR`,
    /// …, <https://sqlite.org/lang_transaction.html>), and a rollback failure leaves nothing better to
    /// do than report the original error, so errors here are deliberately ignored. Cancellation is
    /// checked by the runners, not here, so a stop never leaves the transaction open.
    package func rollbackIfNeeded() {
        guard (try? isAutocommit) == false else { return }
        try? execute("ROLLBACK")
    }

    /// Throws `SQLITE_INTERRUPT` when ``cancellation`` is set; the runners call it before each statement.
    package func checkCancellation() throws {
        if cancellation?.isCancelled == true {
            throw SQLiteError(code: SQLITE_INTERRUPT, message: "interrupted")
        }
    }
}
