/// The rows of a query, read frame by frame as they are consumed, each row in place in its frame's
/// bytes: ``advance()`` locates the row's values, which ``storageClass(at:)``, ``integer(at:)``,
/// ``real(at:)`` and ``bytes(at:)`` read without copying or allocating (as SQLite's `sqlite3_column_*`
/// read a statement's current row).
///
/// Reading stops early with `close()`, which interrupts the query on the server so the connection
/// can serve the next request. Starting another request on the connection closes the rows first.
///
/// ```swift
/// let rows = try connection.query("SELECT name FROM wine")
/// while try rows.advance() {
///     output.append(contentsOf: rows.bytes(at: 0))
/// }
/// ```
public final class DqliteRows {
    /// Column names, in result order.
    public let columns: [String]
    /// The current frame's bytes, copied from its reply into storage reused from frame to frame.
    private var storage: UnsafeMutableRawBufferPointer
    // The accessors read these once per value: unchecked, as no access to them ever overlaps another
    // (the class is used from one thread, and nothing holds them inout across a call).
    @exclusivity(unchecked) private var cursor: RowCursor
    private var hasMore: Bool
    /// Whether ``advance()`` moved to a row (and not past the last).
    @exclusivity(unchecked) private var isOnRow = false
    private weak var connection: DqliteConnection?

    /// Rows starting with `first`, the next frames read from `connection` (none without one).
    init(first: RowFrame, connection: DqliteConnection?) throws {
        columns = first.columns
        storage = .allocate(byteCount: max(first.body.count, 1), alignment: WireCode.wordSize)
        hasMore = first.hasMore
        self.connection = connection
        cursor = try Self.cursor(over: first, in: &storage, reusing: [])
    }

    deinit {
        storage.deallocate()
    }

    /// Whether every row was read (or the rows were closed).
    public var isFinished: Bool { cursor.isAtEnd && !hasMore }

    /// The next row, decoded, or nil after the last one.
    /// - Throws: `DqliteError` when the next frame cannot be read.
    public func next() throws -> [DqliteValue]? {
        guard try advance() else { return nil }
        return (0..<columns.count).map(value(at:))
    }

    /// Moves to the next row, whose values the accessors then read in place: false after the last one.
    /// - Throws: `DqliteError` when the next frame cannot be read or the row is malformed.
    public func advance() throws -> Bool {
        isOnRow = false
        while !(try cursor.advance()) {
            guard hasMore, let connection else { return false }
            let frame = try connection.nextRows()
            guard frame.columns.count == columns.count else {
                throw DqliteError.protocolViolation(
                    "a ROWS frame of \(frame.columns.count) columns in a result of \(columns.count)")
            }
            hasMore = frame.hasMore
            cursor = try Self.cursor(over: frame, in: &storage, reusing: cursor.reusableCells)
        }
        isOnRow = true
        return true
    }

    /// The storage class of the current row's value in `column`.
    public func storageClass(at column: Int) -> DqliteValue.StorageClass {
        isOnRow ? cursor.storageClass(at: column) : .null
    }

    /// The current row's value in `column` as an integer: 0 unless it is one.
    public func integer(at column: Int) -> Int64 { isOnRow ? cursor.integer(at: column) : 0 }

    /// The current row's value in `column` as a real: 0 unless it is one.
    public func real(at column: Int) -> Double { isOnRow ? cursor.real(at: column) : 0 }

    /// The bytes of the current row's text (without its NUL) or blob in `column`, in the frame itself:
    /// valid until the next ``advance()`` or ``close()``, like `sqlite3_column_text`'s. Empty for any
    /// other value.
    public func bytes(at column: Int) -> UnsafeBufferPointer<UInt8> {
        isOnRow ? cursor.bytes(at: column) : UnsafeBufferPointer(start: nil, count: 0)
    }

    /// The current row's value in `column` (after ``advance()`` returned true), decoded.
    public func value(at column: Int) -> DqliteValue {
        isOnRow ? cursor.value(at: column) : .null
    }

    /// Every remaining row.
    public func all() throws -> [[DqliteValue]] {
        var rows: [[DqliteValue]] = []
        while let row = try next() { rows.append(row) }
        return rows
    }

    /// Stops reading: interrupts the query on the server when frames are still to come.
    public func close() throws {
        isOnRow = false
        cursor.finish()
        guard hasMore else { return }
        hasMore = false
        try connection?.interruptRows()
    }

    /// A cursor over `frame`'s rows, its bytes copied into `storage` (grown when too small).
    private static func cursor(
        over frame: RowFrame, in storage: inout UnsafeMutableRawBufferPointer, reusing cells: [RowCursor.Cell]
    ) throws -> RowCursor {
        if storage.count < frame.body.count {
            storage.deallocate()
            storage = .allocate(byteCount: frame.body.count, alignment: WireCode.wordSize)
        }
        frame.body.withUnsafeBytes { storage.copyMemory(from: $0) }
        let bytes = UnsafeRawBufferPointer(rebasing: storage[..<frame.body.count])
        return try RowCursor(bytes, from: frame.rowsStart, columnCount: frame.columns.count, reusing: cells)
    }
}
