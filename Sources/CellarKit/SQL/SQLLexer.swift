internal import CSQLite

/// The one reader of SQL text in cellar: splits UTF-8 bytes into ``SQLToken``s the way SQLite's
/// tokenizer does (`src/tokenize.c` of SQLite 3.40, the one prepare uses), covering every byte, in
/// one pass. It never fails: text SQLite would reject comes out as ``SQLToken/Kind/illegal`` or open
/// tokens. Whether a bare word is a keyword is SQLite's answer (`sqlite3_keyword_check`,
/// <https://sqlite.org/c3ref/keyword_check.html>).
///
/// Facts SQLite can tell by preparing a statement (does it write, return rows, which parameters it
/// has) come from preparing it; the lexer is for what must be read from the text itself: where
/// statements end, the words a statement starts with, what to colour and complete.
///
/// ```swift
/// let bytes = Array("SELECT 'a;b' -- note\n;".utf8)
/// for token in SQLLexer(bytes) where !token.isTrivia {
///     print(token.kind, token.text(in: bytes))  // keyword SELECT, string 'a;b', semicolon ;
/// }
/// ```
package struct SQLLexer: Sequence, IteratorProtocol {
    private let bytes: [UInt8]
    private var offset: Int

    /// A lexer over `bytes`, starting at `offset`.
    package init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// A lexer over the UTF-8 bytes of `text`.
    package init(_ text: String) {
        self.init(Array(text.utf8))
    }

    /// The next token, or nil at the end of the text.
    package mutating func next() -> SQLToken? {
        guard offset < bytes.count else { return nil }
        let token = bytes.withUnsafeBufferPointer { Self.token(in: $0, at: offset) }
        offset = token.range.upperBound
        return token
    }

    /// Every token of the text from the starting offset on.
    package func tokens() -> [SQLToken] {
        Array(self)
    }

    /// The first `count` tokens that are not whitespace or comments, stopping at the end of the
    /// statement (a `;`, which is not included) or of the text.
    package func firstSignificantTokens(_ count: Int) -> [SQLToken] {
        bytes.withUnsafeBufferPointer { Self.firstSignificantTokens(count, in: $0, from: offset) }
    }

    /// The bare words and closed quoted identifiers of `text`, in order, as the names they stand for
    /// (``SQLToken/identifierName(in:)``); strings, comments, numbers and operators are skipped.
    package static func names(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        return SQLLexer(bytes).compactMap { $0.identifierName(in: bytes) }
    }

    // MARK: - Over a buffer

    /// The tokens of `bytes` from `start` on.
    package static func tokens(in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> [SQLToken] {
        var tokens: [SQLToken] = []
        var index = start
        while index < bytes.count {
            let token = token(in: bytes, at: index)
            tokens.append(token)
            index = token.range.upperBound
        }
        return tokens
    }

    /// The first `count` tokens from `start` that are not whitespace or comments, up to the end of the
    /// statement (a `;`, not included) or of the text.
    package static func firstSignificantTokens(_ count: Int, in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0)
        -> [SQLToken]
    {
        var found: [SQLToken] = []
        var index = start
        while found.count < count, index < bytes.count {
            let token = token(in: bytes, at: index)
            if token.kind == .semicolon { break }
            if !token.isTrivia { found.append(token) }
            index = token.range.upperBound
        }
        return found
    }

    /// The offset of the first byte at or after `start` that is not whitespace, a comment or the `;`
    /// of an empty statement: where SQLite starts reading the next statement.
    ///
    /// A vertical tab and a `/*` that ends the text count as blank here too (SQLite's tokenizer takes
    /// the first as an illegal token and the second as `/` and `*`), as cellar has always skipped them.
    package static func statementStart(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            // An ASCII letter starts a word (or a blob literal), never a blank: no token to read.
            if bytes[index] | 0x20 >= UInt8(ascii: "a"), bytes[index] | 0x20 <= UInt8(ascii: "z") { return index }
            let token = unclassifiedToken(in: bytes, at: index)
            let isBlank =
                token.isTrivia || token.kind == .semicolon || bytes[index] == 0x0B
                || (index + 2 == bytes.count && bytes[index] == UInt8(ascii: "/") && bytes[index + 1] == UInt8(ascii: "*"))
            guard isBlank else { return index }
            index = token.range.upperBound
        }
        return index
    }

    /// The offset of the first byte at or after `start` that is not whitespace, a comment or a `;`.
    package static func statementStart(in bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { statementStart(in: $0, from: start) }
    }

    // MARK: - Bytes

    /// SQLite's `IdChar`: whether `byte` can continue a bare word. ASCII letters and digits, `_`, `$`,
    /// and every byte of a multi-byte UTF-8 character.
    package static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...0xFF:
            true
        default:
            false
        }
    }

    /// Whether `byte` can start a bare word: an ASCII letter, `_`, or a non-ASCII byte.
    package static func isIdentifierStart(_ byte: UInt8) -> Bool {
        isIdentifierByte(byte) && !isDigit(byte) && byte != UInt8(ascii: "$")
    }

    /// Whether SQLite's tokenizer takes `byte` as white space between tokens (`sqlite3Isspace`).
    /// A vertical tab (0x0B) continues white space but cannot start it, as in SQLite.
    package static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return isDigit(byte) || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f"))
    }

    /// `byte` with ASCII upper-case letters made lower case.
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    // MARK: - Keywords

    /// Whether `word` is one of SQLite's keywords, in any case (`sqlite3_keyword_check`).
    package static func isKeyword(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        // The longest keyword (CURRENT_TIMESTAMP) has 17 letters.
        guard let base = word.baseAddress, word.count <= 17 else { return false }
        return base.withMemoryRebound(to: CChar.self, capacity: word.count) { sqlite3_keyword_check($0, Int32(word.count)) != 0 }
    }

    /// Whether `word` is one of SQLite's keywords, in any case.
    package static func isKeyword(_ word: String) -> Bool {
        var word = word
        return word.withUTF8 { isKeyword($0) }
    }

    /// Every keyword of the SQLite linked in, upper case, in the order SQLite lists them
    /// (`sqlite3_keyword_name`).
    package static let keywords: [String] = (0..<sqlite3_keyword_count()).compactMap { index in
        var name: UnsafePointer<CChar>?
        var length: Int32 = 0
        guard sqlite3_keyword_name(index, &name, &length) == SQLITE_OK, let name else { return nil }
        return name.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
        }
    }
}
