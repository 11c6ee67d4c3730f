/// Turns the bytes of an SQL file into text, refusing what is not UTF-8 with the place of the problem.
///
/// A UTF-8 byte order mark is skipped; a UTF-16 file (a UTF-16 byte order mark, or NUL bytes) and an
/// invalid UTF-8 sequence are errors naming the line and column of the first bad byte.
package enum SQLFileDecoder {
    /// The text of `bytes`, read from the file at `path`.
    ///
    /// - Throws: ``MigrationError/invalidFile(_:)`` with a located ``Diagnostic``.
    package static func decode(_ bytes: [UInt8], path: String) throws(MigrationError) -> String {
        if TextEncodingCheck.hasUTF16ByteOrderMark(bytes) {
            throw .invalidFile(
                Diagnostic(path: path, location: SourceLocation(line: 1, column: 1), message: TextEncodingCheck.utf16Message))
        }
        let body = bytes.starts(with: TextEncodingCheck.utf8ByteOrderMark) ? Array(bytes.dropFirst(3)) : bytes
        if let nul = body.firstIndex(of: 0) {
            throw .invalidFile(located(body, at: nul, path: path, message: TextEncodingCheck.nulMessage))
        }
        if let bad = body.withUnsafeBufferPointer({ UTF8Validation.firstInvalidOffset(in: $0) }) {
            throw .invalidFile(located(body, at: bad, path: path, message: TextEncodingCheck.invalidByteMessage(body[bad])))
        }
        return String(decoding: body, as: UTF8.self)
    }

    private static func located(_ bytes: [UInt8], at offset: Int, path: String, message: String) -> Diagnostic {
        let location = SourceLocation(byteOffset: offset, in: bytes)
        var lineStart = offset
        while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        let lineText = String(decoding: bytes[lineStart..<offset], as: UTF8.self) + "\u{FFFD}"
        return Diagnostic(path: path, location: location, sourceLine: lineText, message: message)
    }
}
