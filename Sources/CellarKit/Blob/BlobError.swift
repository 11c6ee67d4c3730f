/// Why a blob could not be opened, read or written, with the table, column and rowid it is about.
///
/// ```swift
/// do {
///     let label = try db.openBlob(table: "wine", column: "label", rowID: 42)
/// } catch let error as BlobError where error.reason == .noSuchRow {
///     print(error) // wine.label, rowid 42: no such row
/// }
/// ```
public struct BlobError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The table has no row with this rowid.
        case noSuchRow
        /// The cell holds a value of another storage class (`NULL`, integer, real or text).
        case notABlob(StorageClass)
        /// The database is read-only, so the blob cannot be opened for writing.
        case readOnlyDatabase
        /// The handle was opened for reading and a write was asked of it.
        case openedForReading
        /// The row changed (or was deleted) after the handle was opened; SQLite invalidated it
        /// (`SQLITE_ABORT`, <https://sqlite.org/c3ref/blob_open.html>). ``BlobHandle/reopen(rowID:)`` goes on.
        case rowChanged
        /// The handle was closed.
        case closed
        /// A read or write would reach past the end of the blob: incremental I/O cannot change a
        /// blob's size.
        case outOfRange(offset: Int, count: Int, size: Int)
        /// The blob would be longer than SQLite stores in one value (`SQLITE_LIMIT_LENGTH`).
        case tooBig(size: Int, limit: Int)
        /// A byte source ended before it filled the blob.
        case sourceTooShort(expected: Int, received: Int)
        /// A byte source had more bytes than the blob holds.
        case sourceTooLong(expected: Int)
        /// SQLite refused the operation for another reason (no such table or column, a view, a table
        /// without rowid, an indexed column opened for writing, a locked database, …).
        case failed(SQLiteError)
    }

    /// The table, as given.
    public var table: String
    /// The column, as given.
    public var column: String
    /// The rowid of the row.
    public var rowID: Int64
    /// What went wrong.
    public var reason: Reason

    /// Creates an error about the cell `table.column` of row `rowID`.
    public init(table: String, column: String, rowID: Int64, reason: Reason) {
        self.table = table
        self.column = column
        self.rowID = rowID
        self.reason = reason
    }

    /// `table.column, rowid N: what went wrong`.
    public var description: String {
        "\(table).\(column), rowid \(rowID): \(reason)"
    }
}

extension BlobError.Reason: CustomStringConvertible {
    /// The reason in words, without the place.
    public var description: String {
        switch self {
        case .noSuchRow: "no such row"
        case .notABlob(let storageClass): "the value is \(storageClass == .null ? "NULL" : storageClass.rawValue), not a blob"
        case .readOnlyDatabase: "the database is read-only"
        case .openedForReading: "the blob was opened for reading only"
        case .rowChanged: "the row changed after the blob was opened, which invalidates it"
        case .closed: "the blob handle is closed"
        case .outOfRange(let offset, let count, let size):
            "\(count) bytes at offset \(offset) reach past the end of the blob (\(size) bytes)"
        case .tooBig(let size, let limit): "\(size) bytes is more than SQLite stores in one value (\(limit) bytes)"
        case .sourceTooShort(let expected, let received):
            "the input ended after \(received) of \(expected) bytes"
        case .sourceTooLong(let expected): "the input has more than the \(expected) bytes expected"
        case .failed(let error): error.message
        }
    }
}
