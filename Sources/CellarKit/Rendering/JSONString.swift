/// JSON string literals (RFC 8259) that are always valid UTF-8: quotes, backslashes, every control
/// character, DEL and C1 code escaped, and bytes that are not UTF-8 replaced by U+FFFD. The json and
/// jsonl output modes and `cellar status --format json` write their strings with it.
package enum JSONString {
    /// Appends `bytes` (UTF-8, possibly invalid) as a JSON string literal.
    package static func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var index = 0
        var runStart = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if byte >= 0x80, let (scalar, length) = UTF8Validation.decodeScalar(in: bytes, at: index), scalar.value > 0x9F {
                index += length
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            index += appendEscape(bytes, at: index, to: &output)
            runStart = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        output.append(UInt8(ascii: "\""))
    }

    /// Writes the escape for the character at `index` and returns how many bytes it covered.
    private static func appendEscape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, to output: inout [UInt8]) -> Int {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
        case 0x08: output.append(contentsOf: Array("\\b".utf8))
        case 0x0C: output.append(contentsOf: Array("\\f".utf8))
        case 0x0A: output.append(contentsOf: Array("\\n".utf8))
        case 0x0D: output.append(contentsOf: Array("\\r".utf8))
        case 0x09: output.append(contentsOf: Array("\\t".utf8))
        case ..<0x80: appendUnicodeEscape(UInt32(byte), to: &output)
        default:
            guard let (scalar, length) = UTF8Validation.decodeScalar(in: bytes, at: index) else {
                output.append(contentsOf: Array("\\ufffd".utf8))
                return 1
            }
            appendUnicodeEscape(scalar.value, to: &output)
            return length
        }
        return 1
    }

    /// `\\u00XX`: only control characters, DEL and C1 codes are escaped, all below U+0100.
    private static func appendUnicodeEscape(_ value: UInt32, to output: inout [UInt8]) {
        output.append(contentsOf: Array("\\u".utf8))
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)].withUnsafeBufferPointer {
            HexEncoding.append($0, to: &output)
        }
    }

    /// `text` as a JSON string literal, quotes included.
    ///
    /// ```swift
    /// JSONString.quoted("a\"b\n") // "\"a\\\"b\\n\""
    /// ```
    package static func quoted(_ text: String) -> String {
        var output: [UInt8] = []
        var text = text
        text.withUTF8 { append($0, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }
}
