/// Writes the rows of statements to a ``ByteSink`` in one ``OutputMode``, streaming: rows go out as
/// they are stepped, through one large buffer, so memory stays bounded however many rows come.
///
/// ```swift
/// let renderer = ResultRenderer(sink: sink, options: RenderOptions(mode: .box))
/// try renderer.render(try db.prepare("SELECT * FROM wine"))
/// try renderer.flush()
/// ```
///
/// For an interactive shell, ``render(_:limit:)`` shows only the first and last rows of a long
/// result.
public final class ResultRenderer {
    /// The options in force; may change between statements (the shell's `.mode`).
    public var options: RenderOptions
    private var output: OutputBuffer

    /// Creates a renderer writing to `sink`.
    public init(sink: any ByteSink, options: RenderOptions) {
        self.options = options
        self.output = OutputBuffer(sink: sink)
    }

    /// Steps `statement` to the end, writing each row.
    ///
    /// A statement that returns no row writes nothing, not even headers (as in sqlite3).
    /// - Returns: the number of rows written.
    /// - Throws: ``SQLiteError`` from stepping (rows before the error are written), or what the sink throws.
    @discardableResult
    public func render(_ statement: Statement) throws -> Int {
        // The job is built on the concrete type here, so the per-row path is specialised for it.
        var job = StreamJob(statement: statement)
        return try perform(&job, options: options)
    }

    /// Steps a statement of any engine to the end, writing each row, as ``render(_:)`` does. A file's
    /// statement takes ``render(_:)``, whose per-row path is specialised for it (no witness-table call
    /// per cell).
    @discardableResult
    package func render(statement: some SQLStatement) throws -> Int {
        if let statement = statement as? Statement { return try render(statement) }
        var job = StreamJob(statement: statement)
        return try perform(&job, options: options)
    }

    /// Steps `statement` to the end but writes only its first `limit / 2` rows (rounded up) and its
    /// last `limit / 2` rows, sizing grid columns from the rows shown; in between, human modes write
    /// a row of `…`, and after the result a line saying how many rows were left out.
    ///
    /// Memory stays bounded: the head is kept as it comes and the tail in a ring buffer.
    ///
    /// ```swift
    /// let summary = try renderer.render(statement, limit: 40)   // first 20, last 20
    /// if summary.omittedRowCount > 0, !renderer.options.mode.isHuman { /* say so on standard error */ }
    /// ```
    /// For 100 rows in box mode this writes rows 1–20, a row of `…`, rows 81–100, then the line
    /// `(100 rows, 60 not shown: the first 20 and the last 20 are)`.
    /// - Returns: how many rows there were and how many were left out.
    /// - Throws: ``SQLiteError`` from stepping (nothing is written then), or what the sink throws.
    @discardableResult
    public func render(_ statement: Statement, limit: Int) throws -> RenderSummary {
        try render(statement: statement, limit: limit)
    }

    /// ``render(_:limit:)`` for a statement of any engine.
    @discardableResult
    package func render(statement: some SQLStatement, limit: Int) throws -> RenderSummary {
        var collector = HeadTailCollector(limit: limit)
        while try statement.step() {
            collector.add(StatementCells(statement: statement))
        }
        return try replay(collector, columns: statement.columnNames, options: options)
    }

    /// ``render(statement:limit:)`` with as many rows as fit in `lines` lines of a terminal, the
    /// result's frame, header, omission row and summary line included: one line a row in a grid or a
    /// delimited mode, one line a column (and a blank) in `line`. When a grid would be wider than
    /// ``RenderOptions/maximumGridWidth`` (`.mode auto`), the rows kept are narrowed to what fits in
    /// the `line` layout and written in it.
    @discardableResult
    package func render(statement: some SQLStatement, fittingLines lines: Int) throws -> RenderSummary {
        let columns = statement.columnNames
        let lineLayoutRows = max((lines - 2) / (columns.count + 1), 2)
        var collector = HeadTailCollector(limit: options.mode == .line ? lineLayoutRows : max(lines - frameLines, 2))
        while try statement.step() {
            collector.add(StatementCells(statement: statement))
        }
        var shownOptions = options
        var isLineLayout = options.mode == .line
        if [.box, .table, .markdown].contains(options.mode), let maximumWidth = options.maximumGridWidth,
            FittingGridRowWriter.width(columns: columns, rows: collector.head + collector.tail, options: options)
                > maximumWidth
        {
            isLineLayout = true
            shownOptions.maximumGridWidth = 0  // the line layout, whatever the rows left would measure
        }
        if isLineLayout {
            // A row takes a line a column, more where a value wraps at the window's width, and a blank.
            let kept = collector.narrowed(to: lineLayoutRows)
            let height = LineRowWriter.height(
                of: kept.head + kept.tail, columns: columns, width: options.maximumGridWidth, options: options)
            collector = kept.narrowed(to: max((lines - 2) / (height + 1), 2))
        }
        return try replay(collector, columns: columns, options: shownOptions)
    }

    /// The lines a one-line-a-row result takes besides its rows: borders, header and its rule, the
    /// omission row and the summary line.
    private var frameLines: Int {
        let headers = options.resolvedShowsHeaders
        switch options.mode {
        case .box, .table: return 2 + (headers ? 2 : 0) + 2
        case .markdown, .column: return (headers ? 2 : 0) + 2
        default: return (headers ? 1 : 0) + 2
        }
    }

    private func replay(_ collector: HeadTailCollector, columns: [String], options: RenderOptions) throws -> RenderSummary {
        var job = ReplayJob(columns: columns, collector: collector)
        var shownOptions = options
        shownOptions.sizingRowCount = Int.max
        try perform(&job, options: shownOptions)
        let summary = RenderSummary(rowCount: collector.rowCount, omittedRowCount: collector.omittedCount)
        if summary.omittedRowCount > 0, options.mode.isHuman {
            output.append(
                "(\(summary.rowCount) rows, \(summary.omittedRowCount) not shown: "
                    + "the first \(collector.headLimit) and the last \(collector.tailLimit) are)\n")
        }
        return summary
    }

    /// Hands everything buffered to the sink.
    public func flush() throws {
        try output.flush()
        try output.sink.flush()
    }

    // MARK: - Modes

    /// Runs `job` with the writer of the mode in `options`.
    @discardableResult
    func perform<Job: RenderJob>(_ job: inout Job, options: RenderOptions) throws -> Int {
        switch options.mode {
        case .box: return try runGrid(&job, style: .box, options: options)
        case .table: return try runGrid(&job, style: .table, options: options)
        case .markdown: return try runGrid(&job, style: .markdown, options: options)
        case .line: return try run(&job, LineRowWriter(options: options))
        case .list: return try run(&job, DelimitedRowWriter(format: .list, options: options))
        case .csv: return try run(&job, DelimitedRowWriter(format: .csv, options: options))
        case .tsv: return try run(&job, DelimitedRowWriter(format: .tsv, options: options))
        case .json: return try run(&job, JSONRowWriter(isLines: false))
        case .jsonl: return try run(&job, JSONRowWriter(isLines: true))
        case .quote: return try run(&job, SQLLiteralRowWriter(isInsert: false, options: options))
        case .insert: return try run(&job, SQLLiteralRowWriter(isInsert: true, options: options))
        case .column: return try run(&job, ColumnRowWriter(options: options))
        case .html: return try run(&job, MarkupRowWriter(format: .html, options: options))
        case .tcl: return try run(&job, MarkupRowWriter(format: .tcl, options: options))
        case .ascii: return try run(&job, DelimitedRowWriter(format: .list, options: options))
        }
    }

    private func runGrid<Job: RenderJob>(_ job: inout Job, style: GridStyle, options: RenderOptions) throws -> Int {
        guard let maximumWidth = options.maximumGridWidth else {
            return try run(&job, GridRowWriter(style: style, options: options))
        }
        return try run(&job, FittingGridRowWriter(style: style, options: options, maximumWidth: maximumWidth))
    }

    private func run<Job: RenderJob, Writer: RowWriter>(_ job: inout Job, _ writer: Writer) throws -> Int {
        var writer = writer
        return try job.run(&writer, output: &output)
    }
}

@available(*, unavailable)
extension ResultRenderer: Sendable {}
