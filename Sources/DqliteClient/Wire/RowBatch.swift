/// The rows of one ROWS frame, and whether more frames follow.
struct RowBatch: Equatable, Sendable {
    /// Column names, in result order.
    var columns: [String]
    /// Decoded rows, each with one value per column.
    var rows: [[DqliteValue]]
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
        rows = []
        hasMore = false
        while true {
            let first = try reader.peekByte()
            if first == WireCode.rowsDone || first == WireCode.rowsPart {
                _ = try reader.uint64()
                hasMore = first == WireCode.rowsPart
                return
            }
            rows.append(try Self.row(columnCount: columns.count, from: &reader))
        }
    }

    private static func row(columnCount: Int, from reader: inout MessageReader) throws -> [DqliteValue] {
        let headerBytes = (columnCount + 1) / 2
        var types: [UInt8] = []
        types.reserveCapacity(columnCount)
        for index in 0..<headerBytes {
            let slot = try reader.byte()
            types.append(slot & 0x0f)
            if index * 2 + 1 < columnCount { types.append(slot >> 4) }
        }
        try reader.skipPadding()
        return try types.map { try value(ofType: $0, from: &reader) }
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
