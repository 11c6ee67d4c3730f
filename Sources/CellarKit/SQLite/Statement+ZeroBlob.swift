internal import CSQLite

extension Statement {
    /// Binds a blob of `count` zero bytes to the 1-based parameter `index` without allocating it
    /// (<https://sqlite.org/c3ref/bind_blob.html>): the placeholder that ``BlobHandle`` then fills in
    /// pieces.
    ///
    /// ```swift
    /// let insert = try db.prepare("INSERT INTO wine (name, label, winery_id) VALUES (?, ?, ?)")
    /// try insert.bind("Monte Bello", at: 1)
    /// try insert.bindZeroBlob(count: fileSize, at: 2)
    /// try insert.bind(1, at: 3)
    /// try insert.run()
    /// ```
    /// - Throws: ``SQLiteError`` (`SQLITE_TOOBIG`) when `count` is over the connection's length limit
    ///   (``Database/maximumValueLength``), `SQLITE_RANGE` for a bad index.
    public func bindZeroBlob(count: Int, at index: Int) throws {
        let code = sqlite3_bind_zeroblob64(handle, Int32(index), UInt64(max(0, count)))
        guard code == SQLITE_OK else { throw SQLiteError.read(from: database.handle, code: code, sql: sql) }
    }

    /// Binds a blob of `count` zero bytes to the parameter named `name` (`:name`, `@name`, `$name`).
    /// - Throws: as ``bindZeroBlob(count:at:)``, and `SQLITE_RANGE` when there is no such parameter.
    public func bindZeroBlob(count: Int, named name: String) throws {
        let index = sqlite3_bind_parameter_index(handle, name)
        guard index > 0 else {
            throw SQLiteError(code: SQLITE_RANGE, message: "no parameter named \(name)", sql: sql)
        }
        try bindZeroBlob(count: count, at: Int(index))
    }
}
