/// `line`: one `name = value` line per column, names right-aligned, a blank line between rows.
struct LineRowWriter: RowWriter {
    private var names: [HumanCell] = []
    private var nameWidth = 0
    private var cells: HumanCellFormatter
    private var isFirstRow = true

    init(options: RenderOptions) {
        cells = HumanCellFormatter(nullValue: options.nullValue)
    }

    mutating func begin(columns: [String], into output: inout OutputBuffer) throws {
        names = columns.map(HumanCellFormatter.header)
        nameWidth = max(names.map(\.width).max() ?? 0, 5)  // sqlite3 pads names to at least 5 columns
    }

    mutating func write(_ row: some CellSource, into output: inout OutputBuffer) throws {
        if !isFirstRow { output.append(UInt8(ascii: "\n")) }
        isFirstRow = false
        for index in 0..<row.cellCount {
            output.append(repeating: UInt8(ascii: " "), count: nameWidth - names[index].width)
            output.append(names[index].bytes)
            output.append(" = ")
            cells.withCell(row, at: index) { bytes, _, _ in output.append(bytes) }
            output.append(UInt8(ascii: "\n"))
        }
    }

    mutating func writeOmission(count: Int, into output: inout OutputBuffer) throws {
        output.append("\n…\n")
    }

    mutating func end(into output: inout OutputBuffer) throws {}
}
