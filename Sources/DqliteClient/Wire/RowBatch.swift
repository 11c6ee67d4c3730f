/// The rows of one ROWS frame, and whether more frames follow.
struct RowBatch: Equatable, Sendable {
    /// Column names, in result order.
    var columns: [String]
    /// Decoded values, row after row, one per column: one array for the whole frame, so that decoding
    /// allocates per frame, not per row.
    var values: [DqliteValue]
    /// Whether the server sends another ROWS frame after this one.
    var hasMore: Bool

    /// Decodes a ROWS body: the column count and names, then rows, each a header of 4-bit type codes
    /// padded to the word followed by its values, until the done (`0xff…`) or part (`0xee…`) word.
    init(decoding reader: inout MessageReader) throws {
        let columnCount = try reader.uint64()
        guard columnCount <= UInt64(reader.remaining) else {
            throw DqliteError.protocolViolation("\(columnCount) columns in a body with \(reader.remaining) bytes left")
        }
        columns = try (0..<Int(columnCount)).map { _ in try reader.string() }
        values = []
        hasMore = false
        var types = [UInt8](repeating: 0, count: columns.count + 1)
        while true {
            let first = try reader.peekByte()
            if first == WireCode.rowsDone || first == WireCode.rowsPart {
                _ = try reader.uint64()
                hasMore = first == WireCode.rowsPart
                return
            }
            try Self.appendRow(columnCount: columns.count, types: &types, to: &values, from: &reader)
        }
    }

    /// The decoded rows, one array each.
    var rows: [[DqliteValue]] {
        guard !columns.isEmpty else { return [] }
        return stride(from: 0, to: values.count, by: columns.count).map { Array(values[$0..<$0 + columns.count]) }
    }

    /// Decodes one row onto `values`, its type header read into `types` (reused from row to row).
    private static func appendRow(
        columnCount: Int, types: inout [UInt8], to values: inout [DqliteValue], from reader: inout MessageReader
    ) throws {
        for index in 0..<(columnCount + 1) / 2 {
            let slot = try reader.byte()
            types[index * 2] = slot & 0x0f
            types[index * 2 + 1] = slot >> 4
        }
        try reader.skipPadding()
        for column in 0..<columnCount {
            values.append(try value(ofType: types[column], from: &reader))
        }
    }

    private static func value(ofType code: UInt8, from reader: inout MessageReader) throws -> DqliteValue {
        guard let type = WireCode.ValueType(rawValue: code) else {
            throw DqliteError.protocolViolation("unknown value type \(code) in a row")
        }
        switch type {
        case .integer, .unixTime: return .integer(try reader.int64())
        case .boolean: return .integer(try reader.uint64() == 0 ? 0 : 1)
        case .float: return .real(try reader.double())
        case .text: return .text(try reader.string())
        case .iso8601:
            let text = try reader.string()
            return text.isEmpty ? .null : .text(text)
        case .blob: return .blob(try reader.blob())
        case .null:
            _ = try reader.uint64()
            return .null
        }
    }
}
