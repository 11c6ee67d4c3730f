/// `list`, `csv` and `tsv`: one row a line, cells between separators, blobs as hex.
///
/// - list: `|` between cells, text as is (the sqlite3 CLI's default mode).
/// - csv: RFC 4180: a cell is quoted when it is empty or holds a separator, quote, apostrophe, space,
///   control or non-ASCII byte (as the sqlite3 CLI decides), `"` doubled; rows end in CRLF.
/// - tsv: tab, newline, carriage return and backslash written as `\t`, `\n`, `\r`, `\\`, so every
///   row is one line and every value comes back exactly.
struct DelimitedRowWriter: RowWriter {
    enum Format { case list, csv, tsv }

    private let format: Format
    private let showsHeaders: Bool
    private let text: MachineText
    private let nullValue: [UInt8]
    private let separator: UInt8
    /// The column separator when it is not one byte (`.separator ' :: '`).
    private let longSeparator: [UInt8]?
    private let rowSeparator: [UInt8]
    /// The bytes that make a CSV cell quoted: ``csvSpecial`` and those of the column separator, one
    /// table lookup per byte.
    private let quotedBytes: [Bool]
    private var scratch: [UInt8] = []

    init(format: Format, options: RenderOptions) {
        self.format = format
        self.showsHeaders = options.resolvedShowsHeaders
        self.text = MachineText(escapesControlCharacters: options.escapesControlCharacters)
        var null: [UInt8] = []
        text.append(options.nullValue, to: &null)
        self.nullValue = null
        var column: [UInt8]
        switch format {
        case .list: column = Array((options.columnSeparator ?? options.mode.defaultColumnSeparator).utf8)
        case .csv: column = Array((options.columnSeparator ?? ",").utf8)
        case .tsv: column = Array((options.columnSeparator ?? "\t").utf8)
        }
        // On a terminal a separator that is a control character (ascii mode's 0x1F and 0x1E) is
        // shown escaped, as control characters in the cells are.
        if options.escapesControlCharacters { column = Self.escapingControls(column) }
        separator = column.count == 1 ? column[0] : 0
        longSeparator = column.count == 1 ? nil : column
        let row = Array((options.rowSeparator ?? options.mode.defaultRowSeparator).utf8)
        rowSeparator = options.escapesControlCharacters ? Self.escapingControls(row) : row
        var quoted = Self.csvSpecial
        for byte in column { quoted[Int(byte)] = true }
        quotedBytes = quoted
    }

    mutating func begin(columns: [String], into output: inout OutputBuffer) throws {
        guard showsHeaders else { return }
        for (index, name) in columns.enumerated() {
            if index > 0 { appendSeparator(to: &output) }
            var name = name
            name.withUTF8 { appendText($0, to: &output) }
        }
        endRow(&output)
    }

    mutating func write(_ row: some CellSource, into output: inout OutputBuffer) throws {
        for index in 0..<row.cellCount {
            if index > 0 { appendSeparator(to: &output) }
            switch row.storageClass(at: index) {
            case .null: output.append(nullValue)
            case .integer: IntegerText.append(row.int64(at: index), to: &output.bytes)
            case .real:
                let value = row.double(at: index)
                if !RealFormatting.appendDecimal(value, to: &output.bytes) {
                    row.withBytes(at: index, of: .real) { RealFormatting.append(value, sqliteText: $0, to: &output.bytes) }
                }
            case .blob:
                try row.withBytes(at: index, of: .blob) { bytes in
                    // An empty blob is an empty string, which CSV can tell from NULL only when quoted.
                    if bytes.isEmpty, format == .csv { output.append("\"\"") }
                    try output.appendEncoded(bytes, HexEncoding.append)
                }
            case .text: row.withBytes(at: index, of: .text) { appendText($0, to: &output) }
            }
        }
        endRow(&output)
    }

    mutating func end(into output: inout OutputBuffer) throws {}

    private func appendSeparator(to output: inout OutputBuffer) {
        if let longSeparator { output.append(longSeparator) } else { output.append(separator) }
    }

    private func endRow(_ output: inout OutputBuffer) {
        output.append(rowSeparator)
    }

    private mutating func appendText(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout OutputBuffer) {
        switch format {
        case .list:
            text.append(bytes, to: &output.bytes)
        case .tsv:
            appendTSV(bytes, to: &output)
        case .csv:
            if text.escapesControlCharacters {
                scratch.removeAll(keepingCapacity: true)
                text.append(bytes, to: &scratch)
                let copy = scratch
                copy.withUnsafeBufferPointer { appendCSV($0, to: &output) }
            } else {
                appendCSV(bytes, to: &output)
            }
        }
    }

    private func appendCSV(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout OutputBuffer) {
        let needsQuotes = bytes.isEmpty || quotedBytes.withUnsafeBufferPointer { quoted in bytes.contains { quoted[Int($0)] } }
        guard needsQuotes else {
            output.append(bytes)
            return
        }
        output.append(UInt8(ascii: "\""))
        // The runs between quotes in one append each, every quote doubled.
        var start = 0
        for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "\"") {
            output.append(UnsafeBufferPointer(rebasing: bytes[start...index]))
            start = index
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[start...]))
        output.append(UInt8(ascii: "\""))
    }

    private func appendTSV(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout OutputBuffer) {
        var start = 0
        for (index, byte) in bytes.enumerated() {
            let escape: UInt8
            switch byte {
            case UInt8(ascii: "\t"): escape = UInt8(ascii: "t")
            case UInt8(ascii: "\n"): escape = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escape = UInt8(ascii: "r")
            case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
            default: continue
            }
            text.append(UnsafeBufferPointer(rebasing: bytes[start..<index]), to: &output.bytes)
            output.append(UInt8(ascii: "\\"))
            output.append(escape)
            start = index + 1
        }
        text.append(UnsafeBufferPointer(rebasing: bytes[start...]), to: &output.bytes)
    }

    /// `bytes` with every control byte but tab, line feed and carriage return escaped.
    private static func escapingControls(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 < 0x20 && ![0x09, 0x0A, 0x0D].contains($0) }) else { return bytes }
        var escaped: [UInt8] = []
        bytes.withUnsafeBufferPointer { ControlCharacterEscaping.escape($0, into: &escaped) }
        return escaped
    }

    /// Bytes that make the sqlite3 CLI quote a CSV cell: controls, space, `"`, `'`, DEL and every
    /// non-ASCII byte.
    private static let csvSpecial: [Bool] = (0..<256).map { byte in
        byte <= 0x20 || byte == 0x22 || byte == 0x27 || byte >= 0x7F
    }
}
