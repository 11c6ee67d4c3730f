/// `sqlite3_complete` (<https://sqlite.org/c3ref/complete.html>) made incremental: text is fed in
/// pieces, each byte is looked at once, and the scanner says where statements end and whether all the
/// text so far ends with a complete statement.
///
/// Calling `sqlite3_complete` on a growing statement after every line or chunk reads the statement
/// again each time, which is quadratic in its length; this scanner keeps SQLite's state machine
/// (`src/complete.c`: semicolons, whitespace and comments, quoted strings and identifiers, and the
/// `CREATE TRIGGER … END;` bodies) between pieces, so it is linear. Its answers are those of
/// `sqlite3_complete` on the whole text fed since the last ``reset()``.
package struct StatementBoundaryScanner {
    /// The token classes of `complete.c`.
    private enum Token: Int {
        case semicolon, whitespace, other, explain, create, temp, trigger, end
    }

    /// Where the scanner stands inside a token that may continue in the next piece.
    private enum Lexeme: Equatable {
        case between
        case dash
        case slash
        case lineComment
        case blockComment
        case blockCommentStar
        case quoted(UInt8)
        case bracket
        case word
    }

    /// `complete.c`'s transitions, `transitions[state * 8 + token]`; state 1 is "a statement just
    /// ended". Columns: semicolon, whitespace, other, explain, create, temp, trigger, end.
    private static let transitions: [UInt8] = [
        1, 0, 2, 3, 4, 2, 2, 2,  // 0 invalid (nothing yet)
        1, 1, 2, 3, 4, 2, 2, 2,  // 1 start
        1, 2, 2, 2, 2, 2, 2, 2,  // 2 normal
        1, 3, 3, 2, 4, 2, 2, 2,  // 3 explain
        1, 4, 2, 2, 2, 4, 5, 2,  // 4 create
        6, 5, 5, 5, 5, 5, 5, 5,  // 5 trigger
        6, 6, 5, 5, 5, 5, 5, 7,  // 6 semicolon inside a trigger
        1, 7, 5, 5, 5, 5, 5, 5,  // 7 end inside a trigger
    ]

    private var state: UInt8 = 0
    private var lexeme = Lexeme.between
    /// The current word's length and its first letters, lowercased, 7 bits each (enough for
    /// `temporary`); `isKeywordCandidate` is false once it holds anything but ASCII letters.
    private var wordLength = 0
    private var wordLetters: UInt64 = 0
    private var isKeywordCandidate = true

    /// Creates a scanner that has seen no text.
    package init() {}

    /// Forgets all text fed so far.
    package mutating func reset() {
        self = StatementBoundaryScanner()
    }

    /// Whether the text fed since the last ``reset()`` ends with a complete statement, as
    /// `sqlite3_complete` would say of it (whitespace and comments may follow the final `;`).
    package var isComplete: Bool {
        (lexeme == .between || lexeme == .lineComment) && state == 1
    }

    /// Feeds the next piece of text.
    ///
    /// - Returns: the offset within `bytes` just past the last `;` that ends a statement, or nil when
    ///   no statement ends in this piece.
    @discardableResult
    package mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var lastEnd: Int?
        var index = 0
        while index < bytes.count {
            if consume(bytes[index]) { lastEnd = index + 1 }
            index += 1
        }
        return lastEnd
    }

    /// Feeds the next piece of text (see ``scan(_:)-(UnsafeBufferPointer<UInt8>)``).
    @discardableResult
    package mutating func scan(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { scan($0) }
    }

    // MARK: - The state machine

    /// Takes one byte; returns whether it was a `;` that ended a statement.
    private mutating func consume(_ byte: UInt8) -> Bool {
        switch lexeme {
        case .between:
            return start(byte)
        case .dash:
            if byte == UInt8(ascii: "-") {
                lexeme = .lineComment
                return false
            }
            apply(.other)
            return start(byte)
        case .slash:
            if byte == UInt8(ascii: "*") {
                lexeme = .blockComment
                return false
            }
            apply(.other)
            return start(byte)
        case .lineComment:
            if byte == UInt8(ascii: "\n") { apply(.whitespace) }
        case .blockComment:
            if byte == UInt8(ascii: "*") { lexeme = .blockCommentStar }
        case .blockCommentStar:
            if byte == UInt8(ascii: "/") {
                apply(.whitespace)
            } else if byte != UInt8(ascii: "*") {
                lexeme = .blockComment
            }
        case .quoted(let quote):
            if byte == quote { apply(.other) }
        case .bracket:
            if byte == UInt8(ascii: "]") { apply(.other) }
        case .word:
            if Self.isIdentifierByte(byte) {
                extendWord(byte)
                return false
            }
            apply(wordToken)
            return start(byte)
        }
        return false
    }

    /// Takes the first byte of a token.
    private mutating func start(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ";"):
            apply(.semicolon)
            return state == 1
        case UInt8(ascii: " "), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: "\n"), 0x0C:
            apply(.whitespace)
        case UInt8(ascii: "-"): lexeme = .dash
        case UInt8(ascii: "/"): lexeme = .slash
        case UInt8(ascii: "["): lexeme = .bracket
        case UInt8(ascii: "`"), UInt8(ascii: "\""), UInt8(ascii: "'"): lexeme = .quoted(byte)
        default:
            guard Self.isIdentifierByte(byte) else {
                apply(.other)
                return false
            }
            lexeme = .word
            wordLength = 0
            wordLetters = 0
            isKeywordCandidate = true
            extendWord(byte)
        }
        return false
    }

    private mutating func apply(_ token: Token) {
        state = Self.transitions[Int(state) * 8 + token.rawValue]
        lexeme = .between
    }

    private mutating func extendWord(_ byte: UInt8) {
        wordLength += 1
        guard isKeywordCandidate else { return }
        let lower = byte | 0x20
        guard lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z"), wordLength <= 9 else {
            isKeywordCandidate = false
            return
        }
        wordLetters = wordLetters << 7 | UInt64(lower)
    }

    private var wordToken: Token {
        guard isKeywordCandidate else { return .other }
        return Self.keywords[wordLetters] ?? .other
    }

    /// The words `complete.c` tells apart, by their letters packed as ``extendWord(_:)`` packs them.
    private static let keywords: [UInt64: Token] = [
        pack("create"): .create, pack("trigger"): .trigger, pack("temp"): .temp, pack("temporary"): .temp,
        pack("end"): .end, pack("explain"): .explain,
    ]

    private static func pack(_ word: String) -> UInt64 {
        word.utf8.reduce(0) { $0 << 7 | UInt64($1) }
    }

    /// SQLite's `IdChar`: ASCII letters and digits, `_`, `$`, and every byte of a multi-byte character.
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...0xFF:
            true
        default:
            false
        }
    }
}
