/// Turns the bytes of an SQL file into text, refusing what is not UTF-8 with the place of the problem.
///
/// A UTF-8 byte order mark is skipped; a UTF-16 file (a UTF-16 byte order mark, or NUL bytes) and an
/// invalid UTF-8 sequence are errors naming the line and column of the first bad byte, and so are line
/// ends of a lone CR (classic Mac OS), which SQLite would read as spaces, running comments on.
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
        if let carriageReturn = TextEncodingCheck.firstCarriageReturnLineEnd(in: body) {
            throw .invalidFile(
                located(body, at: carriageReturn, path: path, message: TextEncodingCheck.carriageReturnMessage, isBadByte: false))
        }
        return String(decoding: body, as: UTF8.self)
    }

    /// A diagnostic at `offset`, showing the line up to it and, for a bad byte, U+FFFD in its place.
    private static func located(_ bytes: [UInt8], at offset: Int, path: String, message: String, isBadByte: Bool = true)
        -> Diagnostic
    {
        let location = SourceLocation(byteOffset: offset, in: bytes)
        var lineStart = offset
        while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        let lineText = String(decoding: bytes[lineStart..<offset], as: UTF8.self) + (isBadByte ? "\u{FFFD}" : "")
        return Diagnostic(path: path, location: location, sourceLine: lineText, message: message)
    }
}
