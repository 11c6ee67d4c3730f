/// A grid when it fits, else the `line` layout (psql's `\x auto`): the rows a grid sizes its columns
/// from are kept until the grid's width is known; if it is wider than ``RenderOptions/maximumGridWidth``
/// the whole result is written one `name = value` line per column instead.
///
/// The choice is made once per result, from the same rows and widths the grid would use, so a grid
/// that is drawn keeps one width from its first line to its last.
struct FittingGridRowWriter: RowWriter {
    private enum Layout {
        case grid
        case line
    }

    private var grid: GridRowWriter
    private var line: LineRowWriter
    private let maximumWidth: Int
    private let sizingRowCount: Int
    private let showsHeaders: Bool
    private var formatter: HumanCellFormatter
    private var columns: [String] = []
    private var widths: [Int] = []
    private var pending: [StoredRow] = []
    /// Where a head-and-tail view left rows out: after how many pending rows, and how many.
    private var omission: (position: Int, count: Int)?
    private var layout: Layout?

    init(style: GridStyle, options: RenderOptions, maximumWidth: Int) {
        grid = GridRowWriter(style: style, options: options)
        line = LineRowWriter(options: options)
        self.maximumWidth = maximumWidth
        sizingRowCount = max(options.sizingRowCount, 1)
        showsHeaders = options.resolvedShowsHeaders
        formatter = HumanCellFormatter(nullValue: options.nullValue)
    }

    mutating func begin(columns: [String], into output: inout OutputBuffer) throws {
        self.columns = columns
        widths = showsHeaders ? columns.map { HumanCellFormatter.header($0).width } : Array(repeating: 0, count: columns.count)
    }

    mutating func write(_ row: some CellSource, into output: inout OutputBuffer) throws {
        switch layout {
        case .grid: return try grid.write(row, into: &output)
        case .line: return try line.write(row, into: &output)
        case nil: break
        }
        for index in 0..<row.cellCount {
            let width = formatter.withCell(row, at: index) { _, width, _ in width }
            widths[index] = max(widths[index], width)
        }
        pending.append(StoredRow(copying: row))
        if pending.count >= sizingRowCount { try choose(into: &output) }
    }

    mutating func writeOmission(count: Int, into output: inout OutputBuffer) throws {
        switch layout {
        case .grid: try grid.writeOmission(count: count, into: &output)
        case .line: try line.writeOmission(count: count, into: &output)
        case nil: omission = (pending.count, count)
        }
    }

    mutating func end(into output: inout OutputBuffer) throws {
        if layout == nil { try choose(into: &output) }
        switch layout {
        case .grid: try grid.end(into: &output)
        case .line, nil: try line.end(into: &output)
        }
    }

    /// How wide a grid of `rows` under `columns` is: the width ``choose(into:)`` compares with the
    /// maximum.
    static func width(columns: [String], rows: [StoredRow], options: RenderOptions) -> Int {
        var widths =
            options.resolvedShowsHeaders
            ? columns.map { HumanCellFormatter.header($0).width } : Array(repeating: 0, count: columns.count)
        var formatter = HumanCellFormatter(nullValue: options.nullValue)
        for row in rows {
            for index in 0..<min(row.cellCount, widths.count) {
                widths[index] = max(widths[index], formatter.withCell(row, at: index) { _, width, _ in width })
            }
        }
        return gridWidth(widths)
    }

    /// A bar, then each cell with a blank either side and a bar.
    private static func gridWidth(_ widths: [Int]) -> Int { 1 + widths.reduce(0) { $0 + $1 + 3 } }

    /// Picks the layout from the grid's width (a bar, then each cell with a blank either side and a
    /// bar) and writes the rows kept so far in it.
    private mutating func choose(into output: inout OutputBuffer) throws {
        let chosen: Layout = Self.gridWidth(widths) <= maximumWidth ? .grid : .line
        let rows = pending
        let omission = omission
        pending = []
        self.omission = nil
        switch chosen {
        case .grid: try grid.begin(columns: columns, into: &output)
        case .line: try line.begin(columns: columns, into: &output)
        }
        layout = chosen
        for (index, row) in rows.enumerated() {
            if let omission, omission.position == index { try writeOmission(count: omission.count, into: &output) }
            try write(row, into: &output)
        }
        if let omission, omission.position == rows.count { try writeOmission(count: omission.count, into: &output) }
    }
}
