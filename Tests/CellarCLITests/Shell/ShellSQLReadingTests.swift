import CellarKit
import Testing

@testable import CellarCLI

/// What the shell reads from SQL being typed, through CellarKit's lexer: whether the cursor is inside
/// text or a comment (nothing to complete there), and the names a statement mentions.
@Suite struct ShellSQLReadingTests {
    @Test(arguments: [
        ("'open", true), ("'closed'", false), ("\"open", true), ("[open", true), ("/* open", true),
        ("/* closed */", false), ("-- to the end", true), ("-- ended\n", false), ("'it''s", true), ("X'0a", true),
        ("SELECT a", false),
    ])
    func knowsWhenTheTextEndsInsideAStringOrComment(text: String, isInside: Bool) {
        #expect(CompletionEngine.endsInsideTextOrComment(text) == isInside)
    }

    @Test func namesSkipStringsCommentsAndNumbers() {
        let text = "SELECT \"a \"\" b\", [c d], 'wine', 42 /* winery */ FROM t -- x"
        #expect(SQLLexer.names(in: text) == ["SELECT", "a \" b", "c d", "FROM", "t"])
    }

    @Test func keywordsAreSQLitesInAlphabeticalOrder() {
        #expect(SQLKeywords.all == SQLLexer.keywords.sorted())
        #expect(SQLKeywords.set.contains("RETURNING") && SQLKeywords.set.contains("MATERIALIZED"))
    }

    @Test func highlightingColoursKeywordsStringsNumbersAndComments() {
        let line = "select 'a', x'00', 1.5 -- c"
        let coloured = SQLHighlighter.highlight(line)
        #expect(coloured.hasPrefix(SQLHighlighter.keyword + "select" + SQLHighlighter.reset))
        #expect(coloured.contains(SQLHighlighter.string + "x'00'" + SQLHighlighter.reset))
        #expect(coloured.contains(SQLHighlighter.number + "1.5" + SQLHighlighter.reset))
        #expect(coloured.hasSuffix(SQLHighlighter.comment + "-- c" + SQLHighlighter.reset))
    }
}
