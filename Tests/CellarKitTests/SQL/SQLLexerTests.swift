import TestSupport
import Testing

@testable import CellarKit

/// The lexer reads tokens by SQLite 3.40's tokenizer rules (`src/tokenize.c`); where SQLite itself can
/// say (an unrecognized token, a keyword) the test asks it.
@Suite struct SQLLexerTests {
    private typealias Kind = SQLToken.Kind

    /// The significant tokens of `text` as (kind, text) pairs.
    private static func lexed(_ text: String, keepingTrivia: Bool = false) -> [String] {
        let bytes = Array(text.utf8)
        return SQLLexer(bytes).tokens().filter { keepingTrivia || !$0.isTrivia }.map {
            "\($0.kind)\($0.isOpen ? "(open)" : ""):\($0.text(in: bytes))"
        }
    }

    @Test(arguments: [
        ("SELECT x FROM t", ["keyword:SELECT", "identifier:x", "keyword:FROM", "identifier:t"]),
        ("select Returning_id, returning", ["keyword:select", "identifier:Returning_id", "operator:,", "keyword:returning"]),
        ("_select select1 sélect x$y", ["identifier:_select", "identifier:select1", "identifier:sélect", "identifier:x$y"]),
        ("\"a\"\"b\" `c``d` [e\"f]", ["quotedIdentifier:\"a\"\"b\"", "quotedIdentifier:`c``d`", "quotedIdentifier:[e\"f]"]),
        ("'it''s' ''", ["string:'it''s'", "string:''"]),
        ("X'0aFF' x'' X'abc' X'zz' X'ab", ["blob:X'0aFF'", "blob:x''", "illegal:X'abc'", "illegal:X'zz'", "blob(open):X'ab"]),
        (
            "1 0x1F 0X1f 1.5 .5 1. 1e10 2E-3 3e+4",
            [
                "integer:1", "integer:0x1F", "integer:0X1f", "float:1.5", "float:.5", "float:1.", "float:1e10", "float:2E-3",
                "float:3e+4",
            ]
        ),
        (
            "1_000 12ab 0x 0xg 1e 1e+",
            ["illegal:1_000", "illegal:12ab", "illegal:0x", "illegal:0xg", "illegal:1e", "illegal:1e", "operator:+"]
        ),
        (
            "? ?12 :name @n #x $v $a::b $a(x) $a::b(c)",
            [
                "parameter:?", "parameter:?12", "parameter::name", "parameter:@n", "parameter:#x", "parameter:$v",
                "parameter:$a::b",
                "parameter:$a(x)", "parameter:$a::b(c)",
            ]
        ),
        ("$ : @ $a(b c)", ["illegal:$", "illegal::", "illegal:@", "illegal:$a(b", "identifier:c", "operator:)"]),
        (
            "a->b->>c||d<>e==f!=g<=h>=i<<j>>k",
            [
                "identifier:a", "operator:->", "identifier:b", "operator:->>", "identifier:c", "operator:||", "identifier:d",
                "operator:<>", "identifier:e", "operator:==", "identifier:f", "operator:!=", "identifier:g", "operator:<=",
                "identifier:h", "operator:>=", "identifier:i", "operator:<<", "identifier:j", "operator:>>", "identifier:k",
            ]
        ),
        (
            "(a,b).c+-*/%&|~=<>;",
            [
                "operator:(", "identifier:a", "operator:,", "identifier:b", "operator:)", "operator:.", "identifier:c",
                "operator:+",
                "operator:-", "operator:*", "operator:/", "operator:%", "operator:&", "operator:|", "operator:~", "operator:=",
                "operator:<>", "semicolon:;",
            ]
        ),
        ("! ^ { } \\ ]", ["illegal:!", "illegal:^", "illegal:{", "illegal:}", "illegal:\\", "illegal:]"]),
        ("'open \"open `open [open", ["string(open):'open \"open `open [open"]),
        ("\"open", ["quotedIdentifier(open):\"open"]),
        ("[open", ["quotedIdentifier(open):[open"]),
    ])
    func readsTokensAsSQLiteDoes(text: String, expected: [String]) {
        #expect(Self.lexed(text) == expected)
    }

    @Test(arguments: [
        ("a -- note ; 'x\nb", ["identifier:a", "whitespace: ", "lineComment:-- note ; 'x", "whitespace:\n", "identifier:b"]),
        ("a /* ; ' */ b", ["identifier:a", "whitespace: ", "blockComment:/* ; ' */", "whitespace: ", "identifier:b"]),
        ("a /* open", ["identifier:a", "whitespace: ", "blockComment(open):/* open"]),
        ("/**/ /*/", ["blockComment:/**/", "whitespace: ", "blockComment(open):/*/"]),
        // `/*` at the very end is a slash and a star, as in SQLite.
        ("a /*", ["identifier:a", "whitespace: ", "operator:/", "operator:*"]),
        // A vertical tab continues white space but cannot start it.
        ("a \u{0B}b", ["identifier:a", "whitespace: \u{0B}", "identifier:b"]),
        ("a\u{0B}b", ["identifier:a", "illegal:\u{0B}", "identifier:b"]),
        ("\u{FEFF}a", ["whitespace:\u{FEFF}", "identifier:a"]),
    ])
    func readsTriviaAsSQLiteDoes(text: String, expected: [String]) {
        #expect(Self.lexed(text, keepingTrivia: true) == expected)
    }

    @Test func aNulByteEndsTheTokenItInterruptsAndIsIllegalItself() {
        let bytes: [UInt8] = Array("'a".utf8) + [0] + Array("b'".utf8)
        let tokens = SQLLexer(bytes).tokens()
        #expect(tokens.map(\.kind) == [.string, .illegal, .identifier, .string])
        #expect(tokens[0].isOpen && tokens[0].range == 0..<2)
    }

    @Test(arguments: [
        ("\"a\"\"b\"", "a\"b"), ("`c``d`", "c`d"), ("[e\"\"f]", "e\"\"f"), ("plain", "plain"), ("SELECT", "SELECT"),
    ])
    func identifierNamesLoseTheirQuotes(token: String, name: String) {
        let bytes = Array(token.utf8)
        #expect(SQLLexer(bytes).tokens().first?.identifierName(in: bytes) == name)
    }

    @Test func stringValuesLoseTheirQuotes() {
        let bytes = Array("'it''s'".utf8)
        #expect(SQLLexer(bytes).tokens().first?.stringValue(in: bytes) == "it's")
    }

    /// Every token SQLite refuses is the one its parser names in "unrecognized token", and text the
    /// lexer finds no illegal token in gets no such error.
    @Test(arguments: [
        "1_000", "12ab", "X'abc'", "X'zz'", "'open", "\"open", "[open", "X'ab", "$", ":", "@", "!", "^", "0x", "1e", "$a(b c)",
        "x'01'", "0x1F", ".5", "$a::b(c)", "?7", "a->>'$.b'", "\"a\"\"b\"",
    ])
    func illegalTokensAreTheOnesSQLiteRefuses(text: String) throws {
        let database = try Database(path: ":memory:")
        let bytes = Array("SELECT \(text)".utf8)
        let illegal = SQLLexer(bytes).tokens().first(where: \.isIllegal)
        var message: String?
        do {
            _ = try database.prepare("SELECT \(text)")
        } catch let error as SQLiteError {
            message = error.message
        }
        if let illegal {
            #expect(message == "unrecognized token: \"\(illegal.text(in: bytes))\"")
        } else {
            #expect(message?.hasPrefix("unrecognized token") != true, "\(message ?? "")")
        }
    }

    /// Blob literals are read eight bytes at a time: long ones with a byte that is no hex digit at
    /// every place of a word (the neighbours of `0-9`, `a-f` and `A-F`, a multi-byte one, the closing
    /// quote early) are refused exactly when SQLite refuses them, and accepted whole otherwise.
    @Test func longBlobLiteralsEndWhereSQLiteSaysTheyDo() throws {
        let database = try Database(path: ":memory:")
        for bad in ["/", ":", "@", "G", "`", "g", "é", "'"] {
            for length in [16, 17, 24, 31] {
                for place in 0..<length {
                    var digits = Array(repeating: "0aF9", count: 8).joined().prefix(length).map(String.init)
                    digits[place] = bad
                    let text = "SELECT X'\(digits.joined())'"
                    let bytes = Array(text.utf8)
                    let tokens = SQLLexer(bytes).tokens()
                    var isRefused = false
                    do { _ = try database.prepare(text) } catch { isRefused = true }
                    let isIllegal = tokens.contains(where: \.isIllegal) || tokens.contains(where: \.isOpen)
                    #expect(isIllegal == isRefused, "\(text)")
                }
            }
            let whole = "SELECT X'\(String(repeating: "0123456789abcdefABCDEF", count: 8))'"
            let bytes = Array(whole.utf8)
            #expect(SQLLexer(bytes).tokens().last.map { $0.kind == .blob && $0.range.count == bytes.count - 7 } == true)
        }
    }

    @Test func keywordsAreSQLitesOwn() {
        #expect(SQLLexer.keywords.contains("RETURNING"))
        #expect(SQLLexer.keywords.contains("SELECT"))
        #expect(SQLLexer.keywords.count > 100)
        #expect(SQLLexer.keywords.allSatisfy { SQLLexer.isKeyword($0) && SQLLexer.isKeyword($0.lowercased()) })
        #expect(!SQLLexer.isKeyword("returning_id"))
    }

    @Test func firstSignificantTokensStopAtTheStatementsEnd() {
        let bytes = Array("  -- c\n/* d */ WITH x AS (SELECT 1); INSERT".utf8)
        let words = SQLLexer(bytes).firstSignificantTokens(3).map { $0.text(in: bytes) }
        #expect(words == ["WITH", "x", "AS"])
        #expect(SQLLexer(bytes).firstSignificantTokens(100).last?.text(in: bytes) == ")")
        #expect(SQLLexer.statementStart(in: bytes, from: 0) == 15)
        #expect(SQLLexer.statementStart(in: Array(" ; ;-- x".utf8), from: 0) == 8)
    }

    @Test func isWordComparesWithoutCase() {
        let bytes = Array("Returning \"returning\"".utf8)
        let tokens = SQLLexer(bytes).tokens().filter { !$0.isTrivia }
        #expect(tokens[0].isWord("returning", in: bytes))
        #expect(!tokens[0].isWord("return", in: bytes))
        #expect(!tokens[1].isWord("returning", in: bytes))
    }

    /// Tokens cover every byte, in order, whatever the bytes.
    @Test func tokensCoverEveryByteOfRandomText() {
        var generator = SeededGenerator(seed: 0x1E7E)
        let alphabet = Array("ab1x_$@:#?.'\"`[]-/*;(), \n\u{0B}=<>!|e+".utf8) + [0, 0xC3, 0xA9, 0xEF, 0xBB, 0xBF]
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            var expected = 0
            for token in SQLLexer(bytes) {
                #expect(token.range.lowerBound == expected && !token.range.isEmpty, "\(bytes)")
                expected = token.range.upperBound
            }
            #expect(expected == bytes.count)
        }
    }

    /// Four times the text costs about four times the work (sixteen if it were quadratic), for each
    /// kind of long token and for many short ones.
    @Test(arguments: ["SELECT 'a;b', x'00', \"q\"\"q\", [b] -- c\n/* d */ ?1 :p 1.5e3 a->>b;", "'", "/*", "--", "\"", "["])
    func costGrowsInProportionToTheText(unit: String) {
        func text(_ size: Int) -> [UInt8] {
            let unit = Array(unit.utf8)
            let body = unit.count > 2 ? unit : Array("x;'y'' ".utf8)
            var bytes = unit.count > 2 ? [] : unit
            while bytes.count < size { bytes += body }
            return bytes
        }
        let small = text(100_000)
        let large = text(400_000)
        let smallCost = ThreadCPUClock.cost { _ = SQLLexer(small).tokens() }
        let largeCost = ThreadCPUClock.cost { _ = SQLLexer(large).tokens() }
        #expect(largeCost / smallCost < 10, "100 kB: \(smallCost) s, 400 kB: \(largeCost) s of CPU")
    }
}
