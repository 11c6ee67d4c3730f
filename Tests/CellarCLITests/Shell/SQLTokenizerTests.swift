import Testing

@testable import CellarCLI

@Suite struct SQLTokenizerTests {
    private func kinds(_ text: String) -> [SQLToken.Kind] {
        SQLTokenizer.tokens(in: text).filter { $0.kind != .whitespace }.map(\.kind)
    }

    @Test(arguments: [
        ("SELECT a", [SQLToken.Kind.word, .word]),
        ("'it''s'", [.string]),
        ("x'0aFF' X'00'", [.string, .string]),
        ("\"a \"\" b\" `c` [d e]", [.quotedIdentifier, .quotedIdentifier, .quotedIdentifier]),
        ("1 2.5 .5 1e10 1.5E-3 0x1F", [.number, .number, .number, .number, .number, .number]),
        ("? ?1 :name @p $v", [.parameter, .parameter, .parameter, .parameter, .parameter]),
        ("a -- note\nb", [.word, .comment, .word]),
        ("a /* x\ny */ b", [.word, .comment, .word]),
        ("a<=b;", [.word, .punctuation, .punctuation, .word, .punctuation]),
        ("café_1 日本", [.word, .word]),
        ("t.c", [.word, .punctuation, .word]),
    ])
    func tokenKinds(text: String, expected: [SQLToken.Kind]) {
        #expect(kinds(text) == expected)
    }

    @Test func tokensCoverEveryByteInOrder() {
        let text = "SELECT 'é' AS \"x\", 1.5 /* c */ FROM t -- end"
        let tokens = SQLTokenizer.tokens(in: text)
        #expect(tokens.first?.range.lowerBound == 0)
        #expect(tokens.last?.range.upperBound == text.utf8.count)
        for (left, right) in zip(tokens, tokens.dropFirst()) { #expect(left.range.upperBound == right.range.lowerBound) }
    }

    @Test(arguments: [
        ("'open", true), ("'closed'", false), ("\"open", true), ("[open", true), ("/* open", true),
        ("/* closed */", false), ("-- to the end", true), ("-- ended\n", false), ("'it''s", true),
    ])
    func openTokens(text: String, isOpen: Bool) {
        #expect(SQLTokenizer.tokens(in: text).last?.isOpen == isOpen)
    }

    @Test func identifiersSkipStringsCommentsAndNumbers() {
        let text = "SELECT \"a \"\" b\", [c d], 'wine', 42 /* winery */ FROM t -- x"
        #expect(SQLTokenizer.identifiers(in: text) == ["SELECT", "a \" b", "c d", "FROM", "t"])
    }
}
