/// One ROWS frame as it arrived: its column names, whether another frame follows, and its bytes,
/// whose rows a ``RowCursor`` reads in place.
struct RowFrame: Equatable, Sendable {
    /// Column names, in result order.
    let columns: [String]
    /// The whole body, rows and end word included.
    let body: [UInt8]
    /// Where the first row (or the end word) starts in `body`.
    let rowsStart: Int
    /// Whether the server sends another ROWS frame after this one: the frame's last word is the part
    /// marker (`0xee…`) rather than the done marker (`0xff…`).
    let hasMore: Bool

    /// Reads a ROWS body's column count and names; the rows are left for a ``RowCursor``.
    init(body: [UInt8]) throws {
        var reader = MessageReader(body: body)
        let columnCount = try reader.uint64()
        guard columnCount <= UInt64(reader.remaining) else {
            throw DqliteError.protocolViolation("\(columnCount) columns in a body with \(reader.remaining) bytes left")
        }
        columns = try (0..<Int(columnCount)).map { _ in try reader.string() }
        self.body = body
        rowsStart = reader.offset
        hasMore = body.count >= WireCode.wordSize && body[body.count - WireCode.wordSize] == WireCode.rowsPart
    }

    /// Every row of the frame, decoded (for tests and small results).
    func decodedRows() throws -> [[DqliteValue]] {
        try body.withUnsafeBytes { bytes in
            var cursor = try RowCursor(bytes, from: rowsStart, columnCount: columns.count)
            var rows: [[DqliteValue]] = []
            while try cursor.advance() { rows.append((0..<columns.count).map(cursor.value(at:))) }
            return rows
        }
    }
}
