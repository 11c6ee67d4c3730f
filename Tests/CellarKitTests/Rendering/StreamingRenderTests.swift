import CellarKit
import Testing

/// Grids size from the first rows and cut later wider cells; the head-and-tail view keeps only the
/// rows it shows.
@Suite struct StreamingRenderTests {
    static func numbers(_ count: Int) throws -> Database {
        let db = try Database(path: ":memory:")
        try db.execute(
            """
            CREATE TABLE n AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(count))
            SELECT x, printf('%.*c', x, 'w') AS s FROM c
            """)
        return db
    }

    @Test func laterWiderCellsAreCutWithAnEllipsisKeepingAlignment() throws {
        let db = try Self.numbers(6)
        let bytes = try RenderFixture.render(
            "SELECT x, s FROM n", on: db, options: RenderOptions(mode: .box, showsHeaders: false, sizingRowCount: 3))
        #expect(
            String(decoding: bytes, as: UTF8.self) == """
                ┌───┬─────┐
                │ 1 │ w   │
                │ 2 │ ww  │
                │ 3 │ www │
                │ 4 │ ww… │
                │ 5 │ ww… │
                │ 6 │ ww… │
                └───┴─────┘

                """)
    }

    @Test func wideCharactersAreCutOnCharacterBoundaries() throws {
        let db = try Database(path: ":memory:")
        let bytes = try RenderFixture.render(
            "SELECT 'abcd' AS t UNION ALL SELECT '日本語です'", on: db, options: RenderOptions(mode: .table, sizingRowCount: 1))
        #expect(
            String(decoding: bytes, as: UTF8.self) == """
                +------+
                |  t   |
                +------+
                | abcd |
                | 日…  |
                +------+

                """)
    }

    @Test func headAndTailShowTheFirstAndLastRowsAndCountTheRest() throws {
        let db = try Self.numbers(100)
        let sink = BufferSink()
        let renderer = ResultRenderer(sink: sink, options: RenderOptions(mode: .list))
        let summary = try renderer.render(try db.prepare("SELECT x FROM n"), limit: 6)
        try renderer.flush()
        #expect(summary == RenderSummary(rowCount: 100, omittedRowCount: 94))
        #expect(sink.text == "1\n2\n3\n98\n99\n100\n")
    }

    @Test func headAndTailInABoxSizesFromShownRowsAndSaysWhatWasLeftOut() throws {
        let db = try Self.numbers(50)
        let sink = BufferSink()
        let renderer = ResultRenderer(sink: sink, options: RenderOptions(mode: .box))
        try renderer.render(try db.prepare("SELECT x, length(s) AS len FROM n"), limit: 4)
        try renderer.flush()
        #expect(
            sink.text == """
                ┌────┬─────┐
                │ x  │ len │
                ├────┼─────┤
                │  1 │   1 │
                │  2 │   2 │
                │ …  │ …   │
                │ 49 │  49 │
                │ 50 │  50 │
                └────┴─────┘
                (50 rows, 46 not shown: the first 2 and the last 2 are)

                """)
    }

    @Test func shortResultsUnderTheLimitShowEveryRow() throws {
        let db = try Self.numbers(3)
        let sink = BufferSink()
        let renderer = ResultRenderer(sink: sink, options: RenderOptions(mode: .list))
        let summary = try renderer.render(try db.prepare("SELECT x FROM n"), limit: 40)
        try renderer.flush()
        #expect(summary == RenderSummary(rowCount: 3, omittedRowCount: 0))
        #expect(sink.text == "1\n2\n3\n")
    }

    @Test func rowsBeforeAStepErrorAreWrittenInAFinishedGrid() throws {
        let db = try Database(path: ":memory:")
        let sink = BufferSink()
        let renderer = ResultRenderer(sink: sink, options: RenderOptions(mode: .table))
        let statement = try db.prepare("SELECT 1 AS v UNION ALL SELECT abs(-9223372036854775808)")
        #expect(throws: SQLiteError.self) { try renderer.render(statement) }
        try renderer.flush()
        #expect(sink.text == "+---+\n| v |\n+---+\n| 1 |\n+---+\n")
    }

    @Test func displayWidthCountsWideAndCombiningCharacters() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("🍷") == 2)
    }
}
