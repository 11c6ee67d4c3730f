/// The token rules, those of SQLite 3.40's `sqlite3GetToken` (`src/tokenize.c`). SQLite reads a
/// NUL-terminated string; here the buffer's end, or a NUL byte inside it, ends the text a token can
/// cover, and a NUL byte is an illegal token of its own.
extension SQLLexer {
    /// The token that starts at `start` (which must be inside `bytes`).
    package static func token(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> SQLToken {
        token(in: bytes, at: start, readsKeywords: true)
    }

    /// The token that starts at `start`, as ``token(in:at:)`` reads it except that every bare word is an
    /// ``SQLToken/Kind/identifier``: the same boundaries without asking SQLite's keyword table, for
    /// readers that only look for where tokens and statements end.
    package static func unclassifiedToken(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> SQLToken {
        token(in: bytes, at: start, readsKeywords: false)
    }

    @inline(__always)
    private static func token(in bytes: UnsafeBufferPointer<UInt8>, at start: Int, readsKeywords: Bool) -> SQLToken {
        let byte = bytes[start]
        let next = byteAt(bytes, start + 1)
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
            return SQLToken(kind: .whitespace, range: start..<scan(bytes, from: start + 1, while: isSpace))
        case 0xEF where next == 0xBB && byteAt(bytes, start + 2) == 0xBF:
            return SQLToken(kind: .whitespace, range: start..<start + 3)
        case UInt8(ascii: "-"):
            if next == UInt8(ascii: "-") {
                let end = scan(bytes, from: start + 2) { $0 != UInt8(ascii: "\n") }
                return SQLToken(kind: .lineComment, range: start..<end)
            }
            if next == UInt8(ascii: ">") {
                return symbol(start, length: byteAt(bytes, start + 2) == UInt8(ascii: ">") ? 3 : 2)
            }
            return symbol(start, length: 1)
        case UInt8(ascii: "/"):
            guard next == UInt8(ascii: "*"), byteAt(bytes, start + 2) != 0 else { return symbol(start, length: 1) }
            return blockComment(bytes, from: start)
        case UInt8(ascii: ";"):
            return SQLToken(kind: .semicolon, range: start..<start + 1)
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: "+"), UInt8(ascii: "*"),
            UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "~"):
            return symbol(start, length: 1)
        case UInt8(ascii: "="):
            return symbol(start, length: next == UInt8(ascii: "=") ? 2 : 1)
        case UInt8(ascii: "<"):
            let isPair = next == UInt8(ascii: "=") || next == UInt8(ascii: ">") || next == UInt8(ascii: "<")
            return symbol(start, length: isPair ? 2 : 1)
        case UInt8(ascii: ">"):
            return symbol(start, length: next == UInt8(ascii: "=") || next == UInt8(ascii: ">") ? 2 : 1)
        case UInt8(ascii: "!"):
            guard next == UInt8(ascii: "=") else { return SQLToken(kind: .illegal, range: start..<start + 1) }
            return symbol(start, length: 2)
        case UInt8(ascii: "|"):
            return symbol(start, length: next == UInt8(ascii: "|") ? 2 : 1)
        case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
            let (end, isOpen) = quoted(bytes, from: start, closing: byte)
            return SQLToken(kind: byte == UInt8(ascii: "'") ? .string : .quotedIdentifier, range: start..<end, isOpen: isOpen)
        case UInt8(ascii: "["):
            let end = scan(bytes, from: start + 1) { $0 != UInt8(ascii: "]") }
            let isOpen = byteAt(bytes, end) != UInt8(ascii: "]")
            return SQLToken(kind: .quotedIdentifier, range: start..<(isOpen ? end : end + 1), isOpen: isOpen)
        case UInt8(ascii: "."):
            guard isDigit(next) else { return symbol(start, length: 1) }
            return number(bytes, from: start)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return number(bytes, from: start)
        case UInt8(ascii: "?"):
            return SQLToken(kind: .parameter, range: start..<scan(bytes, from: start + 1, while: isDigit))
        case UInt8(ascii: "$"), UInt8(ascii: "@"), UInt8(ascii: ":"), UInt8(ascii: "#"):
            return namedParameter(bytes, from: start)
        case UInt8(ascii: "x") where next == UInt8(ascii: "'"), UInt8(ascii: "X") where next == UInt8(ascii: "'"):
            return blob(bytes, from: start)
        default:
            guard isIdentifierStart(byte) else { return SQLToken(kind: .illegal, range: start..<start + 1) }
            return word(bytes, from: start, readsKeywords: readsKeywords)
        }
    }

    // MARK: - Token rules

    private static func symbol(_ start: Int, length: Int) -> SQLToken {
        SQLToken(kind: .operator, range: start..<start + length)
    }

    private static func word(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, readsKeywords: Bool) -> SQLToken {
        let end = scan(bytes, from: start + 1, while: isIdentifierByte)
        let isKeyword = readsKeywords && isKeyword(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        return SQLToken(kind: isKeyword ? .keyword : .identifier, range: start..<end)
    }

    /// `/*` up to the first `*/` after it; open at the end of the text.
    private static func blockComment(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> SQLToken {
        var index = start + 2
        while index < bytes.count, bytes[index] != 0 {
            if bytes[index] == UInt8(ascii: "*"), byteAt(bytes, index + 1) == UInt8(ascii: "/") {
                return SQLToken(kind: .blockComment, range: start..<index + 2)
            }
            index += 1
        }
        return SQLToken(kind: .blockComment, range: start..<index, isOpen: true)
    }

    /// The end of a token opened by the quote at `start`, where a doubled quote stands for one.
    private static func quoted(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, closing: UInt8) -> (end: Int, isOpen: Bool) {
        var index = start + 1
        while index < bytes.count, bytes[index] != 0 {
            if bytes[index] == closing {
                guard byteAt(bytes, index + 1) == closing else { return (index + 1, false) }
                index += 1
            }
            index += 1
        }
        return (index, true)
    }

    /// `X'` hex digits `'`; anything else up to the next quote makes it illegal.
    private static func blob(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> SQLToken {
        var end = scan(bytes, from: hexDigitWords(bytes, from: start + 2), while: isHexDigit)
        if byteAt(bytes, end) == UInt8(ascii: "'"), (end - start) % 2 == 0 {
            return SQLToken(kind: .blob, range: start..<end + 1)
        }
        end = scan(bytes, from: end) { $0 != UInt8(ascii: "'") }
        guard byteAt(bytes, end) == UInt8(ascii: "'") else { return SQLToken(kind: .blob, range: start..<end, isOpen: true) }
        return SQLToken(kind: .illegal, range: start..<end + 1)
    }

    /// The offset of the first 8-byte word from `start` on that is not all hex digits: a blob literal
    /// (a one-line dump's `X'…'` may be hundreds of megabytes) is checked eight bytes at a time, each
    /// byte tested for `0-9` and, lowercased, `a-f` by subtracting within its own byte.
    private static func hexDigitWords(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let raw = UnsafeRawPointer(bytes.baseAddress) else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        /// The high bit of each byte (all below 0x80) that is at least `low` and at most `top`.
        func within(_ word: UInt64, _ low: UInt8, _ top: UInt8) -> UInt64 {
            ((word | high) &- ones &* UInt64(low)) & ((ones &* UInt64(top) | high) &- word) & high
        }
        var index = start
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            guard word & high == 0 else { break }
            let digits = within(word, UInt8(ascii: "0"), UInt8(ascii: "9"))
            let hex = digits | within(word | ones &* 0x20, UInt8(ascii: "a"), UInt8(ascii: "f"))
            guard hex == high else { break }
            index += 8
        }
        return index
    }

    /// Digits with an optional fraction and exponent, or `0x` and hex digits; identifier bytes stuck
    /// to the end make the whole run illegal.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> SQLToken {
        var kind = SQLToken.Kind.integer
        var index: Int
        if bytes[start] == UInt8(ascii: "0"), byteAt(bytes, start + 1) | 0x20 == UInt8(ascii: "x"),
            isHexDigit(byteAt(bytes, start + 2))
        {
            index = scan(bytes, from: start + 3, while: isHexDigit)
        } else {
            index = scan(bytes, from: start, while: isDigit)
            if byteAt(bytes, index) == UInt8(ascii: ".") {
                kind = .float
                index = scan(bytes, from: index + 1, while: isDigit)
            }
            let sign = byteAt(bytes, index + 1)
            if byteAt(bytes, index) | 0x20 == UInt8(ascii: "e"),
                isDigit(sign) || ((sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-")) && isDigit(byteAt(bytes, index + 2)))
            {
                kind = .float
                index = scan(bytes, from: index + 2, while: isDigit)
            }
        }
        let end = scan(bytes, from: index, while: isIdentifierByte)
        return SQLToken(kind: end == index ? kind : .illegal, range: start..<end)
    }

    /// `$`, `@`, `:` or `#` and a name; `::` may join name parts and a `(…)` without white space may
    /// end it (Tcl's `$a::b(c)`). Without a name it is illegal.
    private static func namedParameter(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> SQLToken {
        var nameLength = 0
        var index = start + 1
        while index < bytes.count, bytes[index] != 0 {
            let byte = bytes[index]
            if isIdentifierByte(byte) {
                nameLength += 1
            } else if byte == UInt8(ascii: "("), nameLength > 0 {
                let end = scan(bytes, from: index + 1) { !isSpace($0) && $0 != UInt8(ascii: ")") }
                guard byteAt(bytes, end) == UInt8(ascii: ")") else { return SQLToken(kind: .illegal, range: start..<end) }
                return SQLToken(kind: .parameter, range: start..<end + 1)
            } else if byte == UInt8(ascii: ":"), byteAt(bytes, index + 1) == UInt8(ascii: ":") {
                index += 1
            } else {
                break
            }
            index += 1
        }
        return SQLToken(kind: nameLength > 0 ? .parameter : .illegal, range: start..<index)
    }

    // MARK: - Helpers

    /// The byte at `index`, or 0 past the end (as SQLite's NUL terminator reads).
    @inline(__always)
    static func byteAt(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    /// The offset of the first byte from `start` on that does not match (or is NUL), or the end.
    @inline(__always)
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, while matches: (UInt8) -> Bool) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != 0, matches(bytes[index]) { index += 1 }
        return index
    }
}
