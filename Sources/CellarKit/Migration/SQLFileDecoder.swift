/// Turns the bytes of an SQL file into text, refusing what is not UTF-8 with the place of the problem.
///
/// A UTF-8 byte order mark is skipped; a UTF-16 file (a UTF-16 byte order mark, or NUL bytes) and an
/// invalid UTF-8 sequence are errors naming the line and column of the first bad byte.
public enum SQLFileDecoder {
    /// The text of `bytes`, read from the file at `path`.
    ///
    /// - Throws: ``MigrationError/invalidFile(_:)`` with a located ``Diagnostic``.
    public static func decode(_ bytes: [UInt8], path: String) throws(MigrationError) -> String {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw .invalidFile(Diagnostic(path: path, message: "the file is UTF-16; cellar reads SQL files as UTF-8"))
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if let nul = body.firstIndex(of: 0) {
            throw .invalidFile(
                located(
                    body, at: nul,
                    path: path, message: "NUL byte: the file looks like UTF-16; cellar reads SQL files as UTF-8"))
        }
        if let bad = firstInvalidByte(in: body) {
            throw .invalidFile(located(body, at: bad, path: path, message: "invalid UTF-8 byte 0x\(hex(body[bad]))"))
        }
        return String(decoding: body, as: UTF8.self)
    }

    /// The offset of the first byte that does not belong to a valid UTF-8 sequence, if any.
    static func firstInvalidByte(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upper = 0x9F
            case 0xF0:
                length = 4
                lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upper = 0x8F
            default: return index
            }
            for offset in 1..<length {
                guard index + offset < bytes.count else { return index }
                let byte = bytes[index + offset]
                let range = offset == 1 ? lower...upper : 0x80...0xBF
                guard range.contains(byte) else { return index }
            }
            index += length
        }
        return nil
    }

    private static func located(_ bytes: [UInt8], at offset: Int, path: String, message: String) -> Diagnostic {
        let location = SourceLocation(byteOffset: offset, in: bytes)
        var lineStart = offset
        while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        let lineText = String(decoding: bytes[lineStart..<offset], as: UTF8.self) + "\u{FFFD}"
        return Diagnostic(path: path, location: location, sourceLine: lineText, message: message)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
