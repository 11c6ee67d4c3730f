/// `html` and `tcl`, as sqlite3 writes them.
///
/// - html: a `<TR>` per row, a `<TD>` (or `<TH>` for a name) per cell on its own line, with `<`, `>`,
///   `&`, `"` and `'` written as entities.
/// - tcl: each cell a C-style quoted string (`\"`, `\\`, `\t`, `\n`, `\r`, and `\NNN` octal for other
///   bytes that are not printable ASCII), separated by the column separator (a blank by default).
///
/// Numbers are SQLite's text for them, as sqlite3 writes them (`0.1 + 0.2` is `0.3`); blobs are
/// written as hex, as in `list`; `NULL` as the null value.
struct MarkupRowWriter: RowWriter {
    enum Format { case html, tcl }

    private let format: Format
    private let showsHeaders: Bool
    private let text: MachineText
    private let nullValue: [UInt8]
    private let columnSeparator: [UInt8]
    private let rowSeparator: [UInt8]
    private var scratch: [UInt8] = []

    init(format: Format, options: RenderOptions) {
        self.format = format
        showsHeaders = options.resolvedShowsHeaders
        text = MachineText(escapesControlCharacters: options.escapesControlCharacters)
        nullValue = Array(options.nullValue.utf8)
        columnSeparator = Array((options.columnSeparator ?? " ").utf8)
        rowSeparator = Array((options.rowSeparator ?? "\n").utf8)
    }

    mutating func begin(columns: [String], into output: inout OutputBuffer) throws {
        guard showsHeaders else { return }
        if format == .html { output.append("<TR>") }
        for (index, name) in columns.enumerated() {
            appendCell(Array(name.utf8), index: index, isHeader: true, into: &output)
        }
        endRow(&output)
    }

    mutating func write(_ row: some CellSource, into output: inout OutputBuffer) throws {
        if format == .html { output.append("<TR>") }
        for index in 0..<row.cellCount {
            var bytes: [UInt8]
            switch row.storageClass(at: index) {
            case .null: bytes = nullValue
            case .blob:
                bytes = []
                row.withBytes(at: index) { HexEncoding.append($0, to: &bytes) }
            case .integer, .real, .text: bytes = row.withBytes(at: index) { Array($0) }
            }
            appendCell(bytes, index: index, isHeader: false, into: &output)
        }
        endRow(&output)
    }

    mutating func end(into output: inout OutputBuffer) throws {}

    private func endRow(_ output: inout OutputBuffer) {
        if format == .html { output.append("</TR>\n") } else { output.append(rowSeparator) }
    }

    private mutating func appendCell(_ bytes: [UInt8], index: Int, isHeader: Bool, into output: inout OutputBuffer) {
        scratch.removeAll(keepingCapacity: true)
        bytes.withUnsafeBufferPointer { text.append($0, to: &scratch) }
        switch format {
        case .html:
            output.append(isHeader ? "<TH>" : "<TD>")
            for byte in scratch { Self.appendHTML(byte, to: &output) }
            output.append(isHeader ? "</TH>\n" : "</TD>\n")
        case .tcl:
            if index > 0 { output.append(columnSeparator) }
            output.append(UInt8(ascii: "\""))
            for byte in scratch { Self.appendCString(byte, to: &output) }
            output.append(UInt8(ascii: "\""))
        }
    }

    private static func appendHTML(_ byte: UInt8, to output: inout OutputBuffer) {
        switch byte {
        case UInt8(ascii: "<"): output.append("&lt;")
        case UInt8(ascii: ">"): output.append("&gt;")
        case UInt8(ascii: "&"): output.append("&amp;")
        case UInt8(ascii: "\""): output.append("&quot;")
        case UInt8(ascii: "'"): output.append("&#39;")
        default: output.append(byte)
        }
    }

    private static func appendCString(_ byte: UInt8, to output: inout OutputBuffer) {
        switch byte {
        case UInt8(ascii: "\\"): output.append("\\\\")
        case UInt8(ascii: "\""): output.append("\\\"")
        case UInt8(ascii: "\t"): output.append("\\t")
        case UInt8(ascii: "\n"): output.append("\\n")
        case UInt8(ascii: "\r"): output.append("\\r")
        case 0x20..<0x7F: output.append(byte)
        default:
            output.append(UInt8(ascii: "\\"))
            output.append(UInt8(ascii: "0") + (byte >> 6))
            output.append(UInt8(ascii: "0") + ((byte >> 3) & 7))
            output.append(UInt8(ascii: "0") + (byte & 7))
        }
    }
}
