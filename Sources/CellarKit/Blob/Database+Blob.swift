internal import CSQLite

extension Database {
    /// Opens the blob in `table.column` of the row `rowID` for incremental I/O.
    ///
    /// ```swift
    /// let label = try db.openBlob(table: "wine", column: "label", rowID: 1)
    /// try label.copy(to: sink)
    /// ```
    /// - Parameters:
    ///   - schema: the attached database: `main` (the default), `temp` or an `ATTACH` name.
    ///   - access: `.read` (the default) or `.readWrite`.
    /// - Throws: ``BlobError`` naming the cell: no such row, a value that is not a blob, a read-only
    ///   database, or SQLite's own refusal (no such table or column, a view, a table without rowid).
    public func openBlob(
        table: String, column: String, rowID: Int64, schema: String = "main", access: BlobHandle.Access = .read
    ) throws -> BlobHandle {
        try BlobHandle(database: self, schema: schema, table: table, column: column, rowID: rowID, access: access)
    }

    /// The most bytes one value may hold on this connection (`SQLITE_LIMIT_LENGTH`,
    /// <https://sqlite.org/limits.html>): 1,000,000,000 unless the library was built otherwise.
    public var maximumValueLength: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, -1))
    }

    /// Stores `count` bytes from `source` in `table.column` of the row `rowID`, all or nothing: the
    /// cell becomes a zeroblob of `count` bytes, which is then filled in `chunkSize` pieces, in one
    /// transaction (a savepoint when a transaction is already open).
    ///
    /// Memory stays at one chunk whatever `count` is. If anything fails — the source is shorter or
    /// longer than `count`, a cancellation, a disk error — the cell keeps its old value.
    ///
    /// ```swift
    /// let file = FileDescriptorSource(descriptor: open("label.png", O_RDONLY))
    /// try db.writeBlob(table: "wine", column: "label", rowID: 1, from: file, count: fileSize)
    /// ```
    /// - Parameters:
    ///   - createsRow: when the row does not exist, insert it with only its rowid and this column set
    ///     (other columns take their defaults) instead of failing with `.noSuchRow`.
    ///   - progress: called after each chunk with the bytes stored so far.
    /// - Throws: ``BlobError`` naming the cell, or ``SQLiteError`` (`SQLITE_INTERRUPT`) when cancelled.
    public func writeBlob(
        table: String, column: String, rowID: Int64, schema: String = "main", from source: any ByteSource, count: Int,
        createsRow: Bool = false, chunkSize: Int = BlobHandle.defaultChunkSize, progress: ((Int) -> Void)? = nil
    ) throws {
        let cell = BlobCell(database: self, schema: schema, table: table, column: column, rowID: rowID)
        let limit = maximumValueLength
        guard count <= limit else { throw cell.error(.tooBig(size: count, limit: limit)) }
        try cell.atomically {
            try cell.setZeroBlob(count: count, createsRow: createsRow)
            let blob = try openBlob(table: table, column: column, rowID: rowID, schema: schema, access: .readWrite)
            // Closed before the transaction ends: an open handle keeps a statement running.
            defer { try? blob.close() }
            try blob.copy(from: source, chunkSize: chunkSize, progress: progress)
            try blob.close()
        }
    }

    /// Writes the blob in `table.column` of the row `rowID` to `sink`, `chunkSize` bytes at a time.
    ///
    /// ```swift
    /// let bytes = try db.readBlob(table: "wine", column: "label", rowID: 1, to: FileDescriptorSink.standardOutput())
    /// ```
    /// - Parameter progress: called after each chunk with the bytes copied so far.
    /// - Returns: the number of bytes written.
    /// - Throws: ``BlobError`` naming the cell, what the sink throws, or ``SQLiteError``
    ///   (`SQLITE_INTERRUPT`) when cancelled.
    @discardableResult
    public func readBlob(
        table: String, column: String, rowID: Int64, schema: String = "main", to sink: any ByteSink,
        chunkSize: Int = BlobHandle.defaultChunkSize, progress: ((Int) -> Void)? = nil
    ) throws -> Int {
        let blob = try openBlob(table: table, column: column, rowID: rowID, schema: schema)
        defer { try? blob.close() }
        return try blob.copy(to: sink, chunkSize: chunkSize, progress: progress)
    }
}
