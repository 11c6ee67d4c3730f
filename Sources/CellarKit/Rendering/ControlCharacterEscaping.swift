/// Makes text safe to show on a terminal: no byte of it can move the cursor, change colours or
/// rewrite the title.
///
/// `\n`, `\r` and `\t` become those two-character escapes, `\\` stays as is, other C0 controls, DEL,
/// C1 controls (U+0080–U+009F) and bytes that are not valid UTF-8 become `\xNN`.
package enum ControlCharacterEscaping {
    /// Escapes `bytes` (UTF-8, possibly invalid) into `output`.
    package static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 || byte == 0x7F {
                    appendEscaped(Unicode.Scalar(byte), into: &output)
                } else {
                    output.append(byte)
                }
                index += 1
            } else if let (scalar, length) = UTF8Validation.decodeScalar(in: bytes, at: index) {
                if needsEscape(scalar) {
                    appendEscaped(scalar, into: &output)
                } else {
                    output.append(contentsOf: bytes[index..<index + length])
                }
                index += length
            } else {
                appendHexEscape(byte, into: &output)
                index += 1
            }
        }
    }

    /// Escapes a string for a terminal.
    ///
    /// ```swift
    /// ControlCharacterEscaping.escape("a\u{1b}[31mb") // "a\\x1b[31mb"
    /// ```
    package static func escape(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var text = text
        text.withUTF8 { escape($0, into: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `scalar` must be escaped before reaching a terminal.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func appendEscaped(_ scalar: Unicode.Scalar, into output: inout [UInt8]) {
        guard needsEscape(scalar) else {
            output.append(contentsOf: UTF8.encode(scalar)!)
            return
        }
        switch scalar {
        case "\n": output.append(contentsOf: Array("\\n".utf8))
        case "\r": output.append(contentsOf: Array("\\r".utf8))
        case "\t": output.append(contentsOf: Array("\\t".utf8))
        default:
            // C1 controls are two bytes in UTF-8; show the code point, which is what a reader can look up.
            appendHexEscape(UInt8(scalar.value), into: &output)
        }
    }

    static func appendHexEscape(_ byte: UInt8, into output: inout [UInt8]) {
        output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "x")])
        [byte].withUnsafeBufferPointer { HexEncoding.append($0, to: &output) }
    }
}
