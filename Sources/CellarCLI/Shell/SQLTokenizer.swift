/// Splits SQL text into ``SQLToken``s, in one pass over its UTF-8 bytes, as SQLite's tokenizer
/// (`src/tokenize.c`) does for the distinctions the shell needs: strings, quoted identifiers, comments,
/// numbers, parameters and words. It never fails: text SQLite would reject still comes out as tokens.
enum SQLTokenizer {
    /// The tokens of `text`, covering every byte in order.
    static func tokens(in text: String) -> [SQLToken] {
        let bytes = Array(text.utf8)
        var tokens: [SQLToken] = []
        var start = 0
        while start < bytes.count {
            let (kind, end, isOpen) = token(in: bytes, at: start)
            tokens.append(SQLToken(kind: kind, range: start..<end, isOpen: isOpen))
            start = end
        }
        return tokens
    }

    /// The bare and quoted identifiers of `text` in order, quotes removed (a quoted name's doubled quote
    /// made single); strings, comments and numbers are skipped.
    static func identifiers(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        return tokens(in: text).compactMap { token in
            switch token.kind {
            case .word: return String(decoding: bytes[token.range], as: UTF8.self)
            case .quotedIdentifier where !token.isOpen: return unquoted(bytes[token.range])
            default: return nil
            }
        }
    }

    // MARK: - Scanning

    private static let quote = UInt8(ascii: "'")
    private static let doubleQuote = UInt8(ascii: "\"")
    private static let backtick = UInt8(ascii: "`")

    private static func token(in bytes: [UInt8], at start: Int) -> (SQLToken.Kind, Int, Bool) {
        let byte = bytes[start]
        let next = start + 1 < bytes.count ? bytes[start + 1] : 0
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
            return (.whitespace, scan(bytes, from: start) { [0x20, 0x09, 0x0A, 0x0C, 0x0D].contains($0) }, false)
        case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            return (.comment, end, end == bytes.count)
        case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
            return blockComment(bytes, from: start)
        case quote, doubleQuote, backtick:
            let (end, isOpen) = quoted(bytes, from: start, closing: byte)
            return (byte == quote ? .string : .quotedIdentifier, end, isOpen)
        case UInt8(ascii: "["):
            let close = bytes[start...].firstIndex(of: UInt8(ascii: "]"))
            return (.quotedIdentifier, close.map { $0 + 1 } ?? bytes.count, close == nil)
        case UInt8(ascii: "x") where next == quote, UInt8(ascii: "X") where next == quote:
            let (end, isOpen) = quoted(bytes, from: start + 1, closing: quote)
            return (.string, end, isOpen)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return (.number, number(bytes, from: start), false)
        case UInt8(ascii: ".") where isDigit(next):
            return (.number, number(bytes, from: start), false)
        case UInt8(ascii: "?"):
            return (.parameter, scan(bytes, from: start + 1, while: isDigit), false)
        case UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "$"):
            return (.parameter, scan(bytes, from: start + 1, while: isIdentifierByte), false)
        default:
            guard isIdentifierStart(byte) else { return (.punctuation, start + 1, false) }
            return (.word, scan(bytes, from: start + 1, while: isIdentifierByte), false)
        }
    }

    private static func blockComment(_ bytes: [UInt8], from start: Int) -> (SQLToken.Kind, Int, Bool) {
        var index = start + 2
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") { return (.comment, index + 2, false) }
            index += 1
        }
        return (.comment, bytes.count, true)
    }

    /// The end of a token opened by the quote at `start`, where a doubled quote stands for one.
    private static func quoted(_ bytes: [UInt8], from start: Int, closing: UInt8) -> (end: Int, isOpen: Bool) {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == closing {
                guard index + 1 < bytes.count, bytes[index + 1] == closing else { return (index + 1, false) }
                index += 1
            }
            index += 1
        }
        return (bytes.count, true)
    }

    /// Digits, a fraction, an exponent, or `0x` and hex digits; letters stuck to a number stay in it,
    /// as they do in SQLite's token (which then rejects it).
    private static func number(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            let previous = index > start ? bytes[index - 1] | 0x20 : 0
            let isSign = (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && previous == UInt8(ascii: "e")
            guard isIdentifierByte(byte) || byte == UInt8(ascii: ".") || isSign else { break }
            index += 1
        }
        return index
    }

    private static func scan(_ bytes: [UInt8], from start: Int, while matches: (UInt8) -> Bool) -> Int {
        var index = start
        while index < bytes.count, matches(bytes[index]) { index += 1 }
        return index
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Letters, `_`, and every byte of a multi-byte UTF-8 character (SQLite takes them all as letters).
    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte) || byte == UInt8(ascii: "$")
    }

    private static func unquoted(_ token: ArraySlice<UInt8>) -> String {
        let body = token.dropFirst().dropLast()
        let closing = token.last ?? 0
        guard closing != UInt8(ascii: "]") else { return String(decoding: body, as: UTF8.self) }
        var result: [UInt8] = []
        var skipNext = false
        for byte in body {
            if skipNext {
                skipNext = false
                continue
            }
            result.append(byte)
            if byte == closing { skipNext = true }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
