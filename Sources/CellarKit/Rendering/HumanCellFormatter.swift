/// Turns cells into what human modes show: text with control characters escaped, blobs described,
/// `NULL` as the null value. Reuses one scratch buffer so that streaming rows allocate nothing.
struct HumanCellFormatter {
    private let nullValue: [UInt8]
    private let nullWidth: Int
    private var scratch: [UInt8] = []

    init(nullValue: String) {
        let escaped = ControlCharacterEscaping.escape(nullValue)
        self.nullValue = Array(escaped.utf8)
        self.nullWidth = DisplayWidth.of(escaped)
    }

    /// Calls `body` with the shown bytes of cell `index`, their display width and whether it is a number.
    mutating func withCell<Result>(
        _ row: some CellSource, at index: Int, _ body: (UnsafeBufferPointer<UInt8>, Int, Bool) throws -> Result
    ) rethrows -> Result {
        switch row.storageClass(at: index) {
        case .null:
            return try nullValue.withUnsafeBufferPointer { try body($0, nullWidth, false) }
        case .integer, .real:
            return try row.withBytes(at: index) { try body($0, $0.count, true) }
        case .blob:
            scratch.removeAll(keepingCapacity: true)
            row.withBytes(at: index) { scratch.append(contentsOf: BlobDescription.text(of: $0).utf8) }
            return try scratch.withUnsafeBufferPointer { try body($0, DisplayWidth.of($0), false) }
        case .text:
            let isPlain = row.withBytes(at: index) { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
            if isPlain {
                return try row.withBytes(at: index) { try body($0, $0.count, false) }
            }
            scratch.removeAll(keepingCapacity: true)
            row.withBytes(at: index) { ControlCharacterEscaping.escape($0, into: &scratch) }
            return try scratch.withUnsafeBufferPointer { try body($0, DisplayWidth.of($0), false) }
        }
    }

    /// A copy of cell `index`, for rows kept before they are written.
    mutating func cell(_ row: some CellSource, at index: Int) -> HumanCell {
        withCell(row, at: index) { HumanCell(bytes: Array($0), width: $1, isNumber: $2) }
    }

    /// A column name as shown: escaped, with its width.
    static func header(_ name: String) -> HumanCell {
        let escaped = ControlCharacterEscaping.escape(name)
        return HumanCell(bytes: Array(escaped.utf8), width: DisplayWidth.of(escaped), isNumber: false)
    }
}
