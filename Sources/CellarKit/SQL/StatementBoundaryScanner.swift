/// `sqlite3_complete` (<https://sqlite.org/c3ref/complete.html>) made incremental: text is fed in
/// pieces, read once by ``SQLLexer``, and the scanner says where statements end and whether all the
/// text so far ends with a complete statement.
///
/// Calling `sqlite3_complete` on a growing statement after every line or chunk reads the statement
/// again each time, which is quadratic in its length; this scanner keeps SQLite's state machine
/// (`src/complete.c`: semicolons, white space and comments, and the `CREATE TRIGGER … END;` bodies)
/// between pieces, so it is linear. Its answers are those of `sqlite3_complete` on the whole text fed
/// since the last ``reset()``, read with the tokens SQLite's parser reads (so a `;` inside a Tcl-style
/// parameter such as `$a(;)` ends nothing, as for `sqlite3_prepare`).
package struct StatementBoundaryScanner {
    /// The token classes of `complete.c`.
    private enum Token: Int {
        case semicolon, whitespace, other, explain, create, temp, trigger, end
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
    /// The last token fed, not yet taken: the next piece may continue it (`cre` + `ate`, `-` + `-`).
    /// A long open token is kept as its opening bytes only (`'`, `/*`), which the rest continues alike.
    private var held: [UInt8] = []
    /// The buffer that joins `held` and a piece, kept for its capacity.
    private var joined: [UInt8] = []
    /// Whether the token before `held` was a byte-order mark right before it (see ``take(_:in:)``).
    private var followsByteOrderMark = false

    /// Creates a scanner that has seen no text.
    package init() {}

    /// Forgets all text fed so far.
    package mutating func reset() {
        self = StatementBoundaryScanner()
    }

    /// Whether the text fed since the last ``reset()`` ends with a complete statement, as
    /// `sqlite3_complete` would say of it (white space and comments may follow the final `;`).
    package var isComplete: Bool {
        var copy = self
        return held.withUnsafeBufferPointer { buffer in
            for token in SQLLexer.tokens(in: buffer) {
                if token.isOpen, token.kind != .lineComment { return false }
                copy.take(token, in: buffer)
            }
            return copy.state == 1
        }
    }

    /// Feeds the next piece of text.
    ///
    /// - Returns: the offset within `bytes` just past the last `;` that ends a statement, or nil when
    ///   no statement ends in this piece.
    @discardableResult
    package mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        guard !held.isEmpty else { return scanJoined(bytes, heldCount: 0) }
        // The held token goes before the piece, in a buffer kept from piece to piece.
        var text: [UInt8] = []
        swap(&text, &joined)
        defer {
            text.removeAll(keepingCapacity: true)
            swap(&text, &joined)
        }
        text.append(contentsOf: held)
        text.append(contentsOf: bytes)
        return text.withUnsafeBufferPointer { scanJoined($0, heldCount: held.count) }
    }

    /// Scans `buffer`, the held bytes (`heldCount` of them) followed by the piece.
    private mutating func scanJoined(_ buffer: UnsafeBufferPointer<UInt8>, heldCount: Int) -> Int? {
        // Every token is taken as soon as it is read, except what the next piece may continue: the
        // last token (unless a `;`), and the last two when they are `/` `*`, the start of a comment.
        // Memory stays that token however long the piece.
        var lastEnd: Int?
        var index = 0
        let count = buffer.count
        while true {
            let token = SQLLexer.unclassifiedToken(in: buffer, at: index)
            index = token.range.upperBound
            if index == count {
                if token.kind == .semicolon {
                    if take(token, in: buffer) { lastEnd = index - heldCount }
                    held = []
                } else {
                    held = Self.held([token][...], in: buffer)
                }
                return lastEnd
            }
            if index == count - 1, token.range.count == 1, buffer[token.range.lowerBound] == UInt8(ascii: "/"),
                buffer[index] == UInt8(ascii: "*")
            {
                held = Self.held([token, SQLLexer.unclassifiedToken(in: buffer, at: index)][...], in: buffer)
                return lastEnd
            }
            if state == 2, !followsByteOrderMark {
                // The common case, inside a statement, without a call (see ``take(_:in:)``).
                if token.kind == .semicolon {
                    state = 1
                    lastEnd = index - heldCount
                }
            } else if take(token, in: buffer) {
                lastEnd = index - heldCount
            }
        }
    }

    /// Feeds the next piece of text (see ``scan(_:)-(UnsafeBufferPointer<UInt8>)``).
    @discardableResult
    package mutating func scan(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { scan($0) }
    }

    /// The offset just past the first `;` from `start` that ends a statement (as
    /// `sqlite3_complete` decides), or nil when the text ends first.
    package static func firstEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var scanner = StatementBoundaryScanner()
        var index = start
        while index < bytes.count {
            let token = SQLLexer.unclassifiedToken(in: bytes, at: index)
            if scanner.take(token, in: bytes) { return token.range.upperBound }
            index = token.range.upperBound
        }
        return nil
    }

    // MARK: - The state machine

    /// Takes one token; returns whether it was a `;` that ended a statement.
    @discardableResult
    private mutating func take(_ token: SQLToken, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let isAfterMark = followsByteOrderMark
        followsByteOrderMark = false
        if state == 2, !isAfterMark {
            // Inside a statement only its `;` moves the machine (see `transitions`): white space, a
            // byte-order mark, words and every other token leave it in state 2.
            guard token.kind == .semicolon else { return false }
            state = 1
            return true
        }
        switch token.kind {
        case .semicolon:
            apply(.semicolon)
            return state == 1
        case .whitespace:
            // `complete.c` knows neither the byte-order mark (it reads it as letters, joined to a word
            // right after it) nor a vertical tab (another token) as white space.
            if bytes[token.range.lowerBound] == 0xEF {
                apply(.other)
                followsByteOrderMark = true
            } else if bytes[token.range].contains(0x0B) {
                apply(.other)
            }
        case .lineComment, .blockComment:
            break
        case .keyword, .identifier:
            // Inside a statement (state 2) or a trigger's body (5, and 7 after an END) every word moves
            // the machine as any other token does: only the states around a statement's first words
            // and a trigger body's `;` tell words apart.
            guard !isAfterMark, Self.readsWords(state) else {
                apply(.other)
                return false
            }
            apply(Self.keywordToken(UnsafeBufferPointer(rebasing: bytes[token.range])))
        default:
            apply(.other)
        }
        return false
    }

    private mutating func apply(_ token: Token) {
        state = Self.transitions[Int(state) * 8 + token.rawValue]
    }

    /// Whether a word can move the machine otherwise than ``Token/other`` from `state`: not inside a
    /// statement (2) or a trigger's body (5, 7), where every word is ``Token/other``.
    @inline(__always)
    private static func readsWords(_ state: UInt8) -> Bool {
        state != 2 && state != 5 && state != 7
    }

    /// The words `complete.c` tells apart, compared in place in any ASCII case.
    private static func keywordToken(_ word: UnsafeBufferPointer<UInt8>) -> Token {
        guard word.count >= 3, word.count <= 9 else { return .other }
        func matches(_ lower: StaticString) -> Bool {
            guard lower.utf8CodeUnitCount == word.count else { return false }
            let expected = lower.utf8Start
            for index in 0..<word.count where SQLLexer.lowercased(word[index]) != expected[index] { return false }
            return true
        }
        switch SQLLexer.lowercased(word[0]) {
        case UInt8(ascii: "c"): return matches("create") ? .create : .other
        case UInt8(ascii: "t"): return matches("trigger") ? .trigger : matches("temp") || matches("temporary") ? .temp : .other
        case UInt8(ascii: "e"): return matches("end") ? .end : matches("explain") ? .explain : .other
        default: return .other
        }
    }

    // MARK: - Holding the last token

    /// What to keep of the last tokens for the next piece: as much as reads the same once more text
    /// follows, and no more, so that a long string or comment cut in many pieces is not read again.
    private static func held(_ tokens: ArraySlice<SQLToken>, in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard let last = tokens.last else { return [] }
        let start = tokens.first!.range.lowerBound
        let first = bytes[last.range.lowerBound]
        let whole = Array(bytes[start..<last.range.upperBound])
        switch last.kind {
        case .string,
            .quotedIdentifier where first != UInt8(ascii: "["):
            // The content does not matter; only a quote the next piece doubles would.
            return last.isOpen ? [first] : [first, first]
        case .quotedIdentifier:
            return last.isOpen ? [first] : Array("[]".utf8)
        case .blob where last.isOpen:
            return Array(whole.prefix(2))
        case .blockComment:
            guard last.isOpen else { return [UInt8(ascii: " ")] }
            return Array("/*".utf8) + (whole.count > 2 && whole.last == UInt8(ascii: "*") ? [UInt8(ascii: "*")] : [])
        case .lineComment:
            return Array("--".utf8)
        case .whitespace where first != 0xEF:
            return whole.contains(0x0B) ? [0x20, 0x0B] : [0x20]
        case .identifier, .integer, .float, .parameter, .illegal:
            // A run of name or digit bytes: its first bytes read the same with the rest appended.
            return whole.count > 64 && SQLLexer.isIdentifierByte(whole.last!) ? Array(whole.prefix(64)) : whole
        default:
            return whole
        }
    }
}
