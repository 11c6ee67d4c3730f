/// One token of SQL text, as ``SQLLexer`` reads it: what it is and which bytes it covers.
package struct SQLToken: Hashable, Sendable {
    /// What a token is, in the classes of SQLite's tokenizer (`src/tokenize.c`).
    package enum Kind: Hashable, Sendable {
        /// Spaces, tabs, line ends and form feeds (and a UTF-8 byte-order mark, which SQLite skips).
        case whitespace
        /// `-- …` up to, not including, the line end.
        case lineComment
        /// `/* … */`; one left open at the end of the text runs to the end, as SQLite allows.
        case blockComment
        /// A bare word SQLite's keyword table holds (`sqlite3_keyword_check`), in any case. Many can
        /// still name a table or column where the grammar allows; only the parser knows.
        case keyword
        /// A bare word that is no keyword: letters, digits, `_`, `$` and any non-ASCII byte, not
        /// starting with a digit or `$`.
        case identifier
        /// `"x"`, `` `x` `` or `[x]`. (SQLite may still take a `"x"` that names nothing as a string.)
        case quotedIdentifier
        /// `'…'`, with `''` standing for a quote.
        case string
        /// `X'…'`: an even number of hex digits.
        case blob
        /// Decimal digits, or `0x` and hex digits.
        case integer
        /// Digits with a `.` or an exponent: `1.5`, `.5`, `1e10`, `2E-3`.
        case float
        /// `?`, `?NNN`, `:name`, `@name`, `$name` (with Tcl's `$a::b` and `$a(…)` forms).
        case parameter
        /// An operator or punctuation: `(` `)` `,` `.` `+` `-` `*` `/` `%` `&` `|` `~` `||` `->` `->>`
        /// `<<` `>>` `<` `<=` `>` `>=` `=` `==` `!=` `<>`.
        case `operator`
        /// `;`.
        case semicolon
        /// Bytes SQLite's tokenizer refuses: a stray byte (`^`, `{`, a control byte, a lone `!` or `$`),
        /// a number with letters stuck to it (`12ab`, or `1_000`, which SQLite 3.40 has no digit
        /// separators for), or a malformed blob (`X'abc'`).
        case illegal
    }

    /// What the token is.
    package var kind: Kind
    /// The byte offsets it covers in the text it was read from.
    package var range: Range<Int>
    /// Whether the end of the text cut the token off before its closing quote, bracket or `*/`.
    /// SQLite refuses an open string, quoted identifier or blob as illegal; an open block comment is fine.
    package var isOpen: Bool

    package init(kind: Kind, range: Range<Int>, isOpen: Bool = false) {
        self.kind = kind
        self.range = range
        self.isOpen = isOpen
    }

    /// Whitespace or a comment: what SQLite skips between tokens.
    package var isTrivia: Bool {
        kind == .whitespace || kind == .lineComment || kind == .blockComment
    }

    /// A bare word, keyword or not.
    package var isWord: Bool { kind == .keyword || kind == .identifier }

    /// Whether SQLite would reject the token itself, whatever the grammar says.
    package var isIllegal: Bool {
        kind == .illegal || (isOpen && kind != .blockComment)
    }

    /// The token's bytes as text.
    package func text(in bytes: [UInt8]) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The token's bytes as text.
    package func text(in bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Whether the token is the bare word `word` in any ASCII case (`word` given in lower case).
    package func isWord(_ word: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard isWord, range.count == word.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        return zip(bytes[range], expected).allSatisfy { SQLLexer.lowercased($0) == $1 }
    }

    /// Whether the token is the bare word `word` in any ASCII case (`word` given in lower case).
    package func isWord(_ word: StaticString, in bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isWord(word, in: $0) }
    }

    /// The name an identifier token stands for: a bare word as written, a quoted one without its
    /// quotes and with doubled quotes made single (`"a""b"` is `a"b`; `[a]` has no escapes). Nil for
    /// other tokens and open quotes.
    package func identifierName(in bytes: [UInt8]) -> String? {
        switch kind {
        case .keyword, .identifier:
            return text(in: bytes)
        case .quotedIdentifier where !isOpen:
            return Self.unquoted(bytes[range])
        default:
            return nil
        }
    }

    /// The value of a closed string literal: its text without the quotes, `''` made `'`.
    package func stringValue(in bytes: [UInt8]) -> String? {
        guard kind == .string, !isOpen else { return nil }
        return Self.unquoted(bytes[range])
    }

    private static func unquoted(_ token: ArraySlice<UInt8>) -> String {
        let body = token.dropFirst().dropLast()
        let closing = token.last ?? 0
        guard closing != UInt8(ascii: "]") else { return String(decoding: body, as: UTF8.self) }
        var result: [UInt8] = []
        result.reserveCapacity(body.count)
        var skipsNext = false
        for byte in body {
            if skipsNext {
                skipsNext = false
                continue
            }
            result.append(byte)
            if byte == closing { skipsNext = true }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
