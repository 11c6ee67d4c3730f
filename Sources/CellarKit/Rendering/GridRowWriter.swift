/// `box`, `table` and `markdown`: a grid whose columns are as wide as the widest cell of the first
/// rows (``RenderOptions/sizingRowCount``). Rows after those stream straight out; a wider cell is
/// cut to the column with `…`, so every line keeps the same display width. Headers are centred,
/// numbers right-aligned, other cells left-aligned.
struct GridRowWriter: RowWriter {
    private let style: GridStyle
    private let showsHeaders: Bool
    private let sizingRowCount: Int
    private var cells: HumanCellFormatter
    private var headers: [HumanCell] = []
    private var pending: [[HumanCell]] = []
    private var widths: [Int] = []
    private var isSized = false
    private let bar: [UInt8]
    /// `.width`: the columns whose width is fixed, and those aligned right.
    private let fixedWidths: [Int]

    init(style: GridStyle, options: RenderOptions) {
        self.style = style
        self.showsHeaders = options.resolvedShowsHeaders
        self.sizingRowCount = max(options.sizingRowCount, 1)
        self.cells = HumanCellFormatter(nullValue: options.nullValue)
        self.bar = Array(style.bar.utf8)
        self.fixedWidths = options.columnWidths
    }

    mutating func begin(columns: [String], into output: inout OutputBuffer) throws {
        headers = columns.map(HumanCellFormatter.header)
        widths = showsHeaders ? headers.map(\.width) : Array(repeating: 0, count: columns.count)
        for (index, width) in fixedWidths.prefix(columns.count).enumerated() where width != 0 { widths[index] = abs(width) }
    }

    private func isFixed(_ index: Int) -> Bool { index < fixedWidths.count && fixedWidths[index] != 0 }

    private func isRightAligned(_ index: Int) -> Bool { index < fixedWidths.count && fixedWidths[index] < 0 }

    mutating func write(_ row: some CellSource, into output: inout OutputBuffer) throws {
        if isSized {
            writeStreamed(row, into: &output)
            return
        }
        var kept: [HumanCell] = []
        kept.reserveCapacity(row.cellCount)
        for index in 0..<row.cellCount {
            let cell = cells.cell(row, at: index)
            if !isFixed(index) { widths[index] = max(widths[index], cell.width) }
            kept.append(cell)
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
        if let bottom = style.bottom { output.append(GridStyle.line(bottom, widths: widths)) }
    }

    // MARK: - Writing

    private mutating func writeHeaderAndPending(into output: inout OutputBuffer) {
        isSized = true
        if let top = style.top {
            output.append(GridStyle.line(top, widths: widths))
        }
        if showsHeaders {
            output.append(bar)
            for (index, header) in headers.enumerated() {
                let room = widths[index] - header.width
                guard room >= 0 else {
                    header.bytes.withUnsafeBufferPointer {
                        Self.appendCell(
                            $0, width: header.width, isNumber: false, columnWidth: widths[index], bar: bar, to: &output)
                    }
                    continue
                }
                output.append(repeating: UInt8(ascii: " "), count: 1 + room / 2)
                output.append(header.bytes)
                output.append(repeating: UInt8(ascii: " "), count: 1 + room - room / 2)
                output.append(bar)
            }
            output.append(UInt8(ascii: "\n"))
            output.append(GridStyle.line(style.separator, widths: widths))
        }
        for row in pending {
            output.append(bar)
            for (index, cell) in row.enumerated() {
                cell.bytes.withUnsafeBufferPointer {
                    Self.appendCell(
                        $0, width: cell.width, isNumber: cell.isNumber || isRightAligned(index), columnWidth: widths[index],
                        bar: bar, to: &output)
                }
            }
            output.append(UInt8(ascii: "\n"))
        }
        pending = []
    }

    private mutating func writeStreamed(_ row: some CellSource, into output: inout OutputBuffer) {
        output.append(bar)
        let bar = bar
        for index in 0..<row.cellCount {
            let columnWidth = widths[index]
            let rightAligned = isRightAligned(index)
            cells.withCell(row, at: index) { bytes, width, isNumber in
                Self.appendCell(
                    bytes, width: width, isNumber: isNumber || rightAligned, columnWidth: columnWidth, bar: bar, to: &output)
            }
        }
        output.append(UInt8(ascii: "\n"))
    }

    private static func appendCell(
        _ bytes: UnsafeBufferPointer<UInt8>, width: Int, isNumber: Bool, columnWidth: Int, bar: [UInt8],
        to output: inout OutputBuffer
    ) {
        output.append(UInt8(ascii: " "))
        if width > columnWidth {
            appendTruncated(bytes, to: columnWidth, into: &output)
        } else {
            if isNumber { output.append(repeating: UInt8(ascii: " "), count: columnWidth - width) }
            output.append(bytes)
            if !isNumber { output.append(repeating: UInt8(ascii: " "), count: columnWidth - width) }
        }
        output.append(UInt8(ascii: " "))
        output.append(bar)
    }

    /// The longest prefix of `bytes` that fits in `columnWidth - 1` columns, then `…`, padded to
    /// exactly `columnWidth`.
    static func appendTruncated(_ bytes: UnsafeBufferPointer<UInt8>, to columnWidth: Int, into output: inout OutputBuffer) {
        guard columnWidth > 0 else { return }
        var used = 0
        var index = 0
        while index < bytes.count {
            guard let (scalar, length) = UTF8Validation.decodeScalar(in: bytes, at: index) else { break }
            let width = DisplayWidth.of(scalar)
            if used + width > columnWidth - 1 { break }
            used += width
            index += length
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[..<index]))
        output.append("…")
        output.append(repeating: UInt8(ascii: " "), count: columnWidth - 1 - used)
    }
}
