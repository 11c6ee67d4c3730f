/// `column`: sqlite3's `.mode column` — names, a line of dashes, then the rows, cells left-aligned and
/// padded to the column's width (the last one too), two blanks between columns. Widths come from the
/// names and the first rows (``RenderOptions/sizingRowCount``); a wider cell later is cut with `…`.
/// Cells are shown as in the grid modes: control characters escaped, blobs described.
struct ColumnRowWriter: RowWriter {
    private let showsHeaders: Bool
    private let sizingRowCount: Int
    private var cells: HumanCellFormatter
    private var headers: [HumanCell] = []
    private var pending: [[HumanCell]] = []
    private var widths: [Int] = []
    private var isSized = false
    /// `.width`: fixed widths (0 sizes from the content; negative aligns right).
    private let fixedWidths: [Int]

    init(options: RenderOptions) {
        showsHeaders = options.resolvedShowsHeaders
        sizingRowCount = max(options.sizingRowCount, 1)
        cells = HumanCellFormatter(nullValue: options.nullValue)
        fixedWidths = options.columnWidths
    }

    mutating func begin(columns: [String], into output: inout OutputBuffer) throws {
        headers = columns.map(HumanCellFormatter.header)
        // As sqlite3: the names count towards the widths whether or not they are shown.
        widths = headers.map(\.width)
        for (index, width) in fixedWidths.prefix(columns.count).enumerated() where width != 0 { widths[index] = abs(width) }
    }

    private func isFixed(_ index: Int) -> Bool { index < fixedWidths.count && fixedWidths[index] != 0 }

    private func isRightAligned(_ index: Int) -> Bool { index < fixedWidths.count && fixedWidths[index] < 0 }

    mutating func write(_ row: some CellSource, into output: inout OutputBuffer) throws {
        var kept: [HumanCell] = []
        kept.reserveCapacity(row.cellCount)
        for index in 0..<row.cellCount {
            let cell = cells.cell(row, at: index)
            if !isSized, !isFixed(index) { widths[index] = max(widths[index], cell.width) }
            kept.append(cell)
        }
        if isSized {
            writeRow(kept, into: &output)
            return
        }
        pending.append(kept)
        if pending.count >= sizingRowCount { writeHeaderAndPending(into: &output) }
    }

    mutating func writeOmission(count: Int, into output: inout OutputBuffer) throws {
        let marker = HumanCell(bytes: Array("…".utf8), width: 1, isNumber: false)
        pending.append(Array(repeating: marker, count: widths.count))
    }

    mutating func end(into output: inout OutputBuffer) throws {
        if !isSized { writeHeaderAndPending(into: &output) }
    }

    private mutating func writeHeaderAndPending(into output: inout OutputBuffer) {
        isSized = true
        if showsHeaders {
            writeRow(headers, into: &output)
            for (index, width) in widths.enumerated() {
                if index > 0 { output.append("  ") }
                output.append(repeating: UInt8(ascii: "-"), count: width)
            }
            output.append(UInt8(ascii: "\n"))
        }
        for row in pending { writeRow(row, into: &output) }
        pending = []
    }

    private func writeRow(_ row: [HumanCell], into output: inout OutputBuffer) {
        for (index, cell) in row.enumerated() {
            if index > 0 { output.append("  ") }
            let width = widths[index]
            guard cell.width <= width else {
                cell.bytes.withUnsafeBufferPointer { GridRowWriter.appendTruncated($0, to: width, into: &output) }
                continue
            }
            let room = width - cell.width
            if isRightAligned(index) { output.append(repeating: UInt8(ascii: " "), count: room) }
            output.append(cell.bytes)
            if !isRightAligned(index) { output.append(repeating: UInt8(ascii: " "), count: room) }
        }
        output.append(UInt8(ascii: "\n"))
    }
}
