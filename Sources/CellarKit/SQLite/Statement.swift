internal import CSQLite

/// A prepared statement: bind parameters, step through rows, read columns.
///
/// The statement keeps its ``Database`` open and is finalized exactly once, when it is released.
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO wine (name, rating) VALUES (:name, :rating)")
/// for (name, rating) in wines {
///     try insert.bind(name, named: ":name")
///     try insert.bind(rating, named: ":rating")
///     try insert.run()
///     try insert.reset()
/// }
/// ```
public final class Statement {
    let handle: OpaquePointer
    /// The connection that prepared the statement.
    public let database: Database

    /// Whether releasing the object finalizes the statement: false for one the connection keeps
    /// (``Database/executeReused(_:_:)``), which it finalizes itself.
    private let finalizes: Bool

    init(handle: OpaquePointer, database: Database, finalizes: Bool = true) {
        self.handle = handle
        self.database = database
        self.finalizes = finalizes
    }

    deinit {
        if finalizes { sqlite3_finalize(handle) }
    }

    /// The text of the statement as it was prepared.
    public var sql: String { String(cString: sqlite3_sql(handle)) }

    /// Whether the statement makes no direct change to the database file (<https://sqlite.org/c3ref/stmt_readonly.html>).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// 1 for an `EXPLAIN` statement, 2 for `EXPLAIN QUERY PLAN`, 0 otherwise
    /// (<https://sqlite.org/c3ref/stmt_isexplain.html>).
    public var explainKind: Int { Int(sqlite3_stmt_isexplain(handle)) }

    // MARK: - Stepping

    /// Advances to the next row.
    ///
    /// - Returns: `true` when a row is available, `false` when the statement has finished.
    /// - Throws: ``SQLiteError`` (without an offset: step-time errors have no position).
    @discardableResult
    public func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteError.read(from: database.handle, code: code, sql: sql)
        }
    }

    /// Steps to the end, discarding rows.
    public func run() throws {
        while try step() {}
    }

    /// Resets the statement so that it can run again; bindings are kept.
    public func reset() throws {
        let code = sqlite3_reset(handle)
        guard code == SQLITE_OK else { throw SQLiteError.read(from: database.handle, code: code, sql: sql) }
    }

    /// Sets every parameter back to `NULL`.
    public func clearBindings() {
        // sqlite3_clear_bindings always returns SQLITE_OK.
        sqlite3_clear_bindings(handle)
    }

    // MARK: - Binding

    /// The number of the highest parameter (<https://sqlite.org/c3ref/bind_parameter_count.html>).
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The name of the 1-based parameter `index` including its prefix (`:a`, `@a`, `$a`, `?5`), or nil for `?`.
    public func parameterName(at index: Int) -> String? {
        sqlite3_bind_parameter_name(handle, Int32(index)).map { String(cString: $0) }
    }

    /// Binds a value to the 1-based parameter `index`.
    public func bind(_ value: (any ValueConvertible)?, at index: Int) throws {
        let code: Int32
        switch value?.sqliteValue ?? .null {
        case .null:
            code = sqlite3_bind_null(handle, Int32(index))
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, Int32(index), integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, Int32(index), real)
        case .text(let text):
            code = sqlite3_bind_text64(
                handle, Int32(index), text, UInt64(text.utf8.count), cellar_transient(), UInt8(SQLITE_UTF8))
        case .blob(let bytes):
            try bytes.withUnsafeBytes { try bindBlob($0, at: index) }
            return
        }
        guard code == SQLITE_OK else { throw SQLiteError.read(from: database.handle, code: code, sql: sql) }
    }

    /// Binds a copy of `bytes` as a blob to the 1-based parameter `index`. Empty bytes bind as a
    /// zero-length blob (`sqlite3_bind_zeroblob`), never NULL: an empty buffer may have no address,
    /// and `sqlite3_bind_blob` binds NULL for a null pointer.
    package func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int) throws {
        let code =
            bytes.isEmpty
            ? sqlite3_bind_zeroblob(handle, Int32(index), 0)
            : sqlite3_bind_blob64(handle, Int32(index), bytes.baseAddress, UInt64(bytes.count), cellar_transient())
        guard code == SQLITE_OK else { throw SQLiteError.read(from: database.handle, code: code, sql: sql) }
    }

    /// Binds a value to the parameter named `name`, prefix included (`:name`, `@name`, `$name`).
    /// - Throws: ``SQLiteError`` (`SQLITE_RANGE`) when the statement has no such parameter.
    public func bind(_ value: (any ValueConvertible)?, named name: String) throws {
        let index = sqlite3_bind_parameter_index(handle, name)
        guard index > 0 else {
            throw SQLiteError(code: SQLITE_RANGE, message: "no parameter named \(name)", sql: sql)
        }
        try bind(value, at: Int(index))
    }

    /// Binds values to parameters 1, 2, … in order.
    public func bind(_ values: [any ValueConvertible]) throws {
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1)
        }
    }
}

@available(*, unavailable)
extension Statement: Sendable {}
