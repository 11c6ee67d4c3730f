import CellarKit
import Testing

/// `maximumGridWidth` (the shell's `.mode auto`): the grid when it fits, else the `line` layout.
@Suite struct FittingGridTests {
    private func render(_ sql: String, width: Int?, mode: OutputMode = .box, sizing: Int = 1000) throws -> String {
        let db = try StreamingRenderTests.numbers(6)
        let options = RenderOptions(mode: mode, sizingRowCount: sizing, maximumGridWidth: width)
        return String(decoding: try RenderFixture.render(sql, on: db, options: options), as: UTF8.self)
    }

    @Test(arguments: [OutputMode.box, .table, .markdown])
    func aGridThatFitsIsTheSameGrid(mode: OutputMode) throws {
        let sql = "SELECT x, s FROM n"
        // │ x │ s      │ is 1 + 4 + 9 = 14 columns wide.
        #expect(try render(sql, width: 14, mode: mode) == render(sql, width: nil, mode: mode))
    }

    @Test func aGridOneColumnTooWideBecomesLines() throws {
        // │ x │ s  │ is 1 + 4 + 5 = 10 columns wide.
        let text = try render("SELECT x, s FROM n WHERE x <= 2", width: 9)
        #expect(text == "    x = 1\n    s = w\n\n    x = 2\n    s = ww\n")
    }

    @Test func theWidthIsJudgedOnTheSizingRowsAsTheGridWouldBe() throws {
        // Sized on 3 rows the grid is 1 + 4 + 6 = 11 wide; later wider cells are cut, so it fits 11.
        let text = try render("SELECT x, s FROM n", width: 11, sizing: 3)
        #expect(text.hasPrefix("┌───┬─────┐\n"))
        #expect(text.contains("│ 6 │ ww… │"))
    }

    @Test func theHeadAndTailViewKeepsItsMarkerInEitherLayout() throws {
        let db = try StreamingRenderTests.numbers(50)
        for (width, expected) in [(100, "│ …  │"), (5, "\n…\n")] {
            let sink = BufferSink()
            let renderer = ResultRenderer(sink: sink, options: RenderOptions(mode: .box, maximumGridWidth: width))
            let summary = try renderer.render(try db.prepare("SELECT x FROM n"), limit: 4)
            try renderer.flush()
            #expect(summary.omittedRowCount == 46)
            #expect(sink.text.contains(expected))
            #expect(sink.text.contains("(50 rows, 46 not shown"))
        }
    }

    @Test func anEmptyResultWritesNothing() throws {
        #expect(try render("SELECT x FROM n WHERE 0", width: 1).isEmpty)
    }
}
