import Testing

@testable import CellarCLI

@Suite struct SQLHighlighterTests {
    /// The text with every SGR code (`ESC [ … m`) removed.
    private func plain(_ text: String) -> String {
        var result = ""
        var inCode = false
        var previous: Character = " "
        for character in text {
            if character == "\u{1B}" {
                inCode = true
            } else if inCode {
                if character == "m", previous != "\u{1B}" { inCode = false }
            } else {
                result.append(character)
            }
            previous = character
        }
        return result
    }

    @Test(arguments: [
        "SELECT 'it''s', 42, x'00' FROM t -- note",
        "select \"From\", [a b], `c` /* open",
        "INSERT INTO t VALUES (1.5e3, :p, ?1, 'é日本')",
        "'unterminated",
        "",
    ])
    func onlyColourCodesAreAdded(line: String) {
        #expect(plain(SQLHighlighter.highlight(line)) == line)
    }

    @Test func eachKindHasItsColour() {
        let line = "SELECT 'a', 7 -- c"
        let expected =
            SQLHighlighter.keyword + "SELECT" + SQLHighlighter.reset + " " + SQLHighlighter.string + "'a'"
            + SQLHighlighter.reset + ", " + SQLHighlighter.number + "7" + SQLHighlighter.reset + " "
            + SQLHighlighter.comment + "-- c" + SQLHighlighter.reset
        #expect(SQLHighlighter.highlight(line) == expected)
    }

    @Test func namesAndQuotedIdentifiersStayPlain() {
        #expect(SQLHighlighter.highlight("wine \"select\" w_1") == "wine \"select\" w_1")
    }

    @Test func aStringOrCommentOpenedOnAnEarlierLineGoesOn() {
        #expect(
            SQLHighlighter.highlight("still text' AS x", after: "SELECT 'a")
                == SQLHighlighter.string + "still text'" + SQLHighlighter.reset + " " + SQLHighlighter.keyword + "AS"
                + SQLHighlighter.reset + " x")
        #expect(
            SQLHighlighter.highlight("SELECT */", after: "/* a") == SQLHighlighter.comment + "SELECT */" + SQLHighlighter.reset)
    }
}
