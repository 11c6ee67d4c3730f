import CellarKit
import Testing

/// `render(statement:fittingLines:)` (the shell's long-result view at a terminal): as many rows as fit
/// the window, frame, header, omission row and summary line counted, in every layout.
@Suite struct WindowFittingTests {
    private func render(
        _ sql: String, rows count: Int = 100, lines: Int, options: RenderOptions
    ) throws -> (text: String, summary: RenderSummary) {
        let db = try StreamingRenderTests.numbers(count)
        let sink = BufferSink()
        let renderer = ResultRenderer(sink: sink, options: options)
        let summary = try renderer.render(statement: try db.prepare(sql), fittingLines: lines)
        try renderer.flush()
        return (sink.text, summary)
    }

    /// Line feeds, counted as bytes (csv's CRLF is one Character).
    private func lineCount(_ text: String) -> Int { text.utf8.filter { $0 == UInt8(ascii: "\n") }.count }

    /// 23 lines (an 80×24 window less the prompt): 4 for the box's borders and header, a row of `…`
    /// and the summary leave 17 rows, the first 9 and the last 8.
    @Test func aBoxFillsTheWindowExactly() throws {
        let (text, summary) = try render("SELECT x FROM n", lines: 23, options: RenderOptions(mode: .box))
        #expect(lineCount(text) == 23, "\(text)")
        #expect(text.hasPrefix("┌─────┐\n│  x  │\n"))
        #expect(summary.omittedRowCount == 83)
        #expect(text.hasSuffix("(100 rows, 83 not shown: the first 9 and the last 8 are)\n"))
        #expect(text.contains("│   9 │\n│ …   │\n│  93 │\n"))
    }

    @Test(arguments: [
        (OutputMode.box, true), (.box, false), (.table, true), (.markdown, true), (.markdown, false), (.list, true),
        (.list, false), (.csv, true), (.column, true),
    ])
    func everyOneLineModeFitsWithItsFrame(mode: OutputMode, headers: Bool) throws {
        let options = RenderOptions(mode: mode, showsHeaders: headers)
        let (text, summary) = try render("SELECT x FROM n", lines: 20, options: options)
        #expect(summary.omittedRowCount > 0)
        // Machine modes write no omission row nor summary into the result: theirs goes to standard
        // error, a line the budget keeps too.
        let written = lineCount(text) + (mode.isHuman ? 0 : 1)
        #expect(written <= 20, "\(text)")
        #expect(written >= 19, "\(text)")
    }

    @Test func aShortResultIsWholeAndUnchanged() throws {
        let fitted = try render("SELECT x, s FROM n", rows: 5, lines: 23, options: RenderOptions(mode: .box))
        let db = try StreamingRenderTests.numbers(5)
        let whole = try RenderFixture.render("SELECT x, s FROM n", on: db, options: RenderOptions(mode: .box))
        #expect(fitted.summary.omittedRowCount == 0)
        #expect(fitted.text == String(decoding: whole, as: UTF8.self))
    }

    /// The line layout: a row is a line a column and a blank; with `…` and the summary, 2 rows of 2
    /// columns take 2 × 3 + 2 = 8 lines (the blank before the first row is not written).
    @Test func theLineLayoutCountsALineAColumn() throws {
        let (text, summary) = try render("SELECT x, s FROM n", lines: 11, options: RenderOptions(mode: .line))
        #expect(summary.omittedRowCount == 97)
        #expect(lineCount(text) <= 11, "\(text)")
        #expect(text.hasPrefix("    x = 1\n    s = w\n\n    x = 2\n"), "\(text)")
    }

    /// `.mode auto` too wide for a box: the rows kept are narrowed to what fits as lines, long values
    /// counted as the lines they wrap to at the window's width.
    @Test func aGridTooWideIsNarrowedToTheLinesThatFit() throws {
        let options = RenderOptions(mode: .box, maximumGridWidth: 40)
        let (text, summary) = try render("SELECT x, printf('%.70c', 'v') AS v FROM n", lines: 23, options: options)
        #expect(!text.contains("┌"))
        #expect(text.contains("    v = vvv"))
        // `    v = ` and 70 v's wrap to 2 lines at 40 columns: 3 lines a row, a blank, so 5 rows of 23.
        #expect(summary.omittedRowCount == 95, "\(text)")
        let wrapped = text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) {
            $0 + max(1, ($1.count + 39) / 40)
        }
        #expect(wrapped - 1 <= 23, "\(text)")
    }

    /// 7 rows all kept in the head of a box's view, then narrowed to 5 as lines: the last two come from
    /// that head.
    @Test func narrowingAShortResultKeepsItsLastRowsInOrder() throws {
        let options = RenderOptions(mode: .box, maximumGridWidth: 40)
        let (text, summary) = try render("SELECT x, printf('%.70c', 'v') AS v FROM n", rows: 7, lines: 23, options: options)
        #expect(summary.omittedRowCount == 2)
        let numbers = text.split(separator: "\n").filter { $0.hasPrefix("    x = ") }.map { $0.dropFirst(8) }
        #expect(numbers == ["1", "2", "3", "6", "7"], "\(text)")
    }

    @Test func aWindowTooSmallStillShowsTheFirstAndLastRow() throws {
        let (text, summary) = try render("SELECT x FROM n", lines: 3, options: RenderOptions(mode: .box))
        #expect(summary.omittedRowCount == 98)
        #expect(text.contains("│   1 │") && text.contains("│ 100 │"))
    }
}
