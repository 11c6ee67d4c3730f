/// What the script runner and the migrator say about bytes that are not UTF-8 text, in one place, so
/// that `cellar run` and `cellar migrate` report the same problem the same way.
package enum TextEncodingCheck {
    /// The UTF-8 byte-order mark, skipped at the start of a file.
    package static let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether `bytes` start with a UTF-16 byte-order mark (either byte order).
    package static func hasUTF16ByteOrderMark(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
    }

    /// The message for a file that starts with a UTF-16 byte-order mark.
    package static let utf16Message = "the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8"

    /// The message for a NUL byte, which UTF-8 SQL text never holds.
    package static let nulMessage = "NUL byte: the file looks like UTF-16 or binary, not UTF-8 text"

    /// The message for a file whose lines end in a lone CR.
    package static let carriageReturnMessage =
        "line ends are CR only (classic Mac OS): SQLite reads a CR as a space, so a '--' comment would run on to "
        + "the end of the file; save the file with LF or CRLF line ends"

    /// The index of the first CR of `bytes` when their line ends are CR only: the bytes hold a CR and
    /// no LF. A CR in text that has LF line ends is data (inside a string literal) and stays.
    package static func firstCarriageReturnLineEnd(in bytes: some Collection<UInt8>) -> Int? {
        var firstCarriageReturn: Int?
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\n") { return nil }
            if byte == UInt8(ascii: "\r"), firstCarriageReturn == nil { firstCarriageReturn = index }
        }
        return firstCarriageReturn
    }

    /// The message for the first byte of an invalid UTF-8 sequence.
    package static func invalidByteMessage(_ byte: UInt8) -> String {
        "invalid UTF-8 (byte 0x\(HexEncoding.string([byte])))"
    }
}
