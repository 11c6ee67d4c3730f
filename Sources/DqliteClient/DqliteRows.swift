/// The rows of a query, read frame by frame as they are consumed.
///
/// Reading stops early with `close()`, which interrupts the query on the server so the connection
/// can serve the next request. Starting another request on the connection closes the rows first.
public final class DqliteRows {
    /// Column names, in result order.
    public let columns: [String]
    /// The current frame's values, row after row.
    private var batch: [DqliteValue]
    /// Where the next row starts in `batch`.
    private var index = 0
    /// Where the current row (the one `advance()` moved to) starts in `batch`.
    private var current = -1
    private var hasMore: Bool
    private weak var connection: DqliteConnection?

    init(first: RowBatch, connection: DqliteConnection) {
        columns = first.columns
        batch = first.values
        hasMore = first.hasMore
        self.connection = connection
    }

    /// Whether every row was read (or the rows were closed).
    public var isFinished: Bool { !hasMore && index >= batch.count }

    /// The next row, or nil after the last one.
    /// - Throws: `DqliteError` when the next frame cannot be read.
    public func next() throws -> [DqliteValue]? {
        guard try advance() else { return nil }
        return Array(batch[current..<current + columns.count])
    }

    /// Moves to the next row, whose values ``value(at:)`` then reads without copying the row: false
    /// after the last one.
    /// - Throws: `DqliteError` when the next frame cannot be read.
    public func advance() throws -> Bool {
        while index >= batch.count {
            guard hasMore, let connection else {
                current = -1
                return false
            }
            let frame = try connection.nextRows()
            batch = frame.values
            index = 0
            hasMore = frame.hasMore
        }
        current = index
        index += columns.count
        return true
    }

    /// The current row's value in `column` (after ``advance()`` returned true).
    public func value(at column: Int) -> DqliteValue {
        batch[current + column]
    }

    /// Every remaining row.
    public func all() throws -> [[DqliteValue]] {
        var rows: [[DqliteValue]] = []
        while let row = try next() { rows.append(row) }
        return rows
    }

    /// Stops reading: interrupts the query on the server when frames are still to come.
    public func close() throws {
        batch = []
        index = 0
        guard hasMore else { return }
        hasMore = false
        try connection?.interruptRows()
    }
}
