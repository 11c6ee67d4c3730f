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

    /// The most lines one of `rows` takes, a line a column, or more where `name = value` is wider than
    /// `width` (nil: unknown, no wrapping counted).
    static func height(of rows: [StoredRow], columns: [String], width: Int?, options: RenderOptions) -> Int {
        let nameWidth = max(columns.map { HumanCellFormatter.header($0).width }.max() ?? 0, 5)
        var formatter = HumanCellFormatter(nullValue: options.nullValue)
        var height = columns.count
        for row in rows {
            var rowHeight = 0
            for index in 0..<row.cellCount {
                let cellWidth = formatter.withCell(row, at: index) { _, width, _ in width }
                let lineWidth = nameWidth + 3 + cellWidth
                rowHeight += width.map { $0 > 0 ? max(1, (lineWidth + $0 - 1) / $0) : 1 } ?? 1
            }
            height = max(height, rowHeight)
        }
        return height
    }

    mutating func writeOmission(count: Int, into output: inout OutputBuffer) throws {
        output.append("\n…\n")
    }

    mutating func end(into output: inout OutputBuffer) throws {}
}
