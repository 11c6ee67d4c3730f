internal import CSQLite

/// An open blob in one cell, read and written in place with SQLite's incremental blob I/O
/// (<https://sqlite.org/c3ref/blob_open.html>), so that a value of any size moves in pieces instead of
/// whole in memory.
///
/// A handle cannot change the size of its blob: to store a file, first set the cell to a zeroblob of
/// the file's size (``Statement/bindZeroBlob(count:at:)``), then write into it — or let
/// ``Database/writeBlob(table:column:rowID:schema:from:count:createsRow:chunkSize:progress:)`` do both.
/// The handle closes when released or with ``close()``; any use after ``close()`` throws.
///
/// ```swift
/// let label = try db.openBlob(table: "wine", column: "label", rowID: 1)
/// let header = try label.read(count: 8, at: 0)
/// try label.reopen(rowID: 2)
/// let size = try label.size
/// ```
public final class BlobHandle {
    /// What the handle may do.
    public enum Access: Sendable {
        /// Read only.
        case read
        /// Read and write (the bytes in place; the size stays).
        case readWrite
    }

    /// The chunk size the streaming helpers use unless told otherwise: 256 KiB.
    public static let defaultChunkSize = 256 * 1024

    /// The connection the blob belongs to; the handle keeps it open.
    public let database: Database
    /// The attached database (`main`, `temp` or an `ATTACH` name).
    public let schema: String
    /// The table, as given.
    public let table: String
    /// The column, as given.
    public let column: String
    /// The rowid of the row the handle is on.
    public private(set) var rowID: Int64
    /// What the handle may do.
    public let access: Access

    /// The `sqlite3_blob *`; nil once closed.
    private var handle: OpaquePointer?
    /// `SELECT typeof(column) … WHERE rowid = ?`, prepared on first need: it tells a missing row and a
    /// value that is not a blob apart (SQLite's incremental I/O would also open text).
    private var storageClassQuery: Statement?

    /// Opens the blob in `schema.table.column` of the row `rowID`.
    ///
    /// - Throws: ``BlobError`` naming the cell: no such row, a value that is not a blob, a read-only
    ///   database when `access` is `.readWrite`, or SQLite's own refusal.
    init(database: Database, schema: String, table: String, column: String, rowID: Int64, access: Access) throws {
        self.database = database
        self.schema = schema
        self.table = table
        self.column = column
        self.rowID = rowID
        self.access = access
        handle = try open(rowID: rowID)
        if let problem = try storageClassProblem(rowID: rowID) {
            try? close()
            throw error(problem)
        }
    }

    deinit {
        sqlite3_blob_close(handle)
    }

    // MARK: - Size and position

    /// The blob's size in bytes.
    /// - Throws: ``BlobError`` (`.closed`) after ``close()``.
    public var size: Int {
        get throws { Int(sqlite3_blob_bytes(try openHandle())) }
    }

    /// Moves the handle to the same column of another row, faster than opening a new one
    /// (<https://sqlite.org/c3ref/blob_reopen.html>).
    ///
    /// A handle that a change to its row invalidated (`.rowChanged`) can be reopened, on the same row
    /// or another.
    ///
    /// - Throws: ``BlobError``: no such row or a value that is not a blob (the handle then stays on
    ///   its row), or `.closed`.
    public func reopen(rowID newRowID: Int64) throws {
        let blob = try openHandle()
        if let problem = try storageClassProblem(rowID: newRowID) { throw error(problem, rowID: newRowID) }
        let code = sqlite3_blob_reopen(blob, newRowID)
        if code & 0xFF == SQLITE_ABORT {
            // A handle invalidated by a change to its row refuses even to move: open it afresh.
            sqlite3_blob_close(blob)
            handle = nil
            handle = try open(rowID: newRowID)
        } else if code != SQLITE_OK {
            throw error(mapped(code), rowID: newRowID)
        }
        rowID = newRowID
    }

    /// Closes the handle now; later uses throw ``BlobError`` (`.closed`). Closing twice does nothing.
    ///
    /// - Throws: ``SQLiteError`` when SQLite reports an error while closing (in autocommit mode, a
    ///   failed commit of the blob's writes).
    public func close() throws {
        guard let blob = handle else { return }
        handle = nil
        storageClassQuery = nil
        let code = sqlite3_blob_close(blob)
        guard code == SQLITE_OK else { throw SQLiteError.read(from: database.handle, code: code) }
    }

    // MARK: - Reading and writing

    /// Fills `buffer` with the bytes that start at `offset`.
    ///
    /// - Throws: ``BlobError``: `.outOfRange` when the bytes reach past the end, `.rowChanged` when
    ///   the row changed since the handle was opened, `.closed`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {
        let blob = try openHandle()
        try checkRange(offset: offset, count: buffer.count, blob: blob)
        guard let address = buffer.baseAddress, buffer.count > 0 else { return }
        let code = sqlite3_blob_read(blob, address, Int32(buffer.count), Int32(offset))
        guard code == SQLITE_OK else { throw error(mapped(code)) }
    }

    /// The `count` bytes that start at `offset`.
    ///
    /// - Throws: as ``read(into:at:)``.
    public func read(count: Int, at offset: Int) throws -> [UInt8] {
        guard count > 0 else {
            try checkRange(offset: offset, count: count, blob: try openHandle())
            return []
        }
        return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try read(into: UnsafeMutableRawBufferPointer(buffer), at: offset)
            initialized = count
        }
    }

    /// Overwrites the bytes that start at `offset` with `bytes`.
    ///
    /// - Throws: ``BlobError``: `.openedForReading`, `.outOfRange` (a write cannot grow the blob),
    ///   `.rowChanged`, `.closed`, or `.failed` with SQLite's error.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        let blob = try openHandle()
        guard access == .readWrite else { throw error(.openedForReading) }
        try checkRange(offset: offset, count: bytes.count, blob: blob)
        guard let address = bytes.baseAddress, bytes.count > 0 else { return }
        let code = sqlite3_blob_write(blob, address, Int32(bytes.count), Int32(offset))
        guard code == SQLITE_OK else { throw error(mapped(code)) }
    }

    /// Overwrites the bytes that start at `offset` with `bytes`.
    ///
    /// - Throws: as ``write(_:at:)-(UnsafeRawBufferPointer,_)``.
    public func write(_ bytes: [UInt8], at offset: Int) throws {
        try bytes.withUnsafeBytes { try write($0, at: offset) }
    }

    // MARK: - Errors

    /// The open `sqlite3_blob *`, or `.closed`.
    func openHandle() throws -> OpaquePointer {
        guard let handle else { throw error(.closed) }
        return handle
    }

    /// An error about this handle's cell (or the row `rowID` when given).
    func error(_ reason: BlobError.Reason, rowID otherRowID: Int64? = nil) -> BlobError {
        BlobError(table: table, column: column, rowID: otherRowID ?? rowID, reason: reason)
    }

    private func checkRange(offset: Int, count: Int, blob: OpaquePointer) throws {
        let size = Int(sqlite3_blob_bytes(blob))
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw error(.outOfRange(offset: offset, count: count, size: size))
        }
    }

    /// Opens the `sqlite3_blob *` of the row `rowID`.
    private func open(rowID: Int64) throws -> OpaquePointer {
        let connection = try database.openHandle()
        if access == .readWrite, sqlite3_db_readonly(connection, schema) == 1 {
            throw error(.readOnlyDatabase, rowID: rowID)
        }
        var opened: OpaquePointer?
        let code = sqlite3_blob_open(connection, schema, table, column, rowID, access == .readWrite ? 1 : 0, &opened)
        guard code == SQLITE_OK, let opened else {
            let failure = SQLiteError.read(from: connection, code: code)
            sqlite3_blob_close(opened)
            throw error(classify(failure, rowID: rowID), rowID: rowID)
        }
        return opened
    }

    /// The reason for a failed read, write or reopen.
    private func mapped(_ code: Int32) -> BlobError.Reason {
        switch code & 0xFF {
        case SQLITE_ABORT: .rowChanged
        case SQLITE_READONLY: access == .read ? .openedForReading : .readOnlyDatabase
        default: .failed(SQLiteError.read(from: database.handle, code: code))
        }
    }

    /// Why `sqlite3_blob_open` failed: SQLite says "no such rowid" and "cannot open value of type …"
    /// in words only, so the row is looked at to name the reason.
    private func classify(_ failure: SQLiteError, rowID: Int64) -> BlobError.Reason {
        if failure.primaryCode == SQLITE_READONLY { return .readOnlyDatabase }
        guard failure.primaryCode == SQLITE_ERROR, let problem = try? storageClassProblem(rowID: rowID) else {
            return .failed(failure)
        }
        return problem
    }

    /// `.noSuchRow` or `.notABlob` for the row `rowID`, or nil when it holds a blob.
    private func storageClassProblem(rowID: Int64) throws -> BlobError.Reason? {
        let query = try storageClassQuery ?? prepareStorageClassQuery()
        storageClassQuery = query
        defer { try? query.reset() }
        try query.bind(rowID, at: 1)
        guard try query.step() else { return .noSuchRow }
        let storageClass = StorageClass(rawValue: query.text(at: 0)) ?? .null
        return storageClass == .blob ? nil : .notABlob(storageClass)
    }

    private func prepareStorageClassQuery() throws -> Statement {
        let quote = IdentifierQuoting.quote
        return try database.prepare(
            "SELECT typeof(\(quote(column))) FROM \(quote(schema)).\(quote(table)) WHERE rowid = ?")
    }
}

@available(*, unavailable)
extension BlobHandle: Sendable {}
