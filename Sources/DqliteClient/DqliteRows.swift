/// The rows of a query, read frame by frame as they are consumed.
///
/// Reading stops early with `close()`, which interrupts the query on the server so the connection
/// can serve the next request. Starting another request on the connection closes the rows first.
public final class DqliteRows {
    /// Column names, in result order.
    public let columns: [String]
    private var batch: [[DqliteValue]]
    private var index = 0
    private var hasMore: Bool
    private weak var connection: DqliteConnection?

    init(first: RowBatch, connection: DqliteConnection) {
        columns = first.columns
        batch = first.rows
        hasMore = first.hasMore
        self.connection = connection
    }

    /// Whether every row was read (or the rows were closed).
    public var isFinished: Bool { !hasMore && index >= batch.count }

    /// The next row, or nil after the last one.
    /// - Throws: `DqliteError` when the next frame cannot be read.
    public func next() throws -> [DqliteValue]? {
        while index >= batch.count {
            guard hasMore, let connection else { return nil }
            let frame = try connection.nextRows()
            batch = frame.rows
            index = 0
            hasMore = frame.hasMore
        }
        defer { index += 1 }
        return batch[index]
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
