/// What SQLite skips before a statement: whitespace, comments (<https://sqlite.org/lang_comment.html>)
/// and the semicolons of empty statements.
enum SQLTrivia {
    /// The offset of the first byte at or after `start` that is not whitespace, a comment or a `;`.
    static func end(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || (0x09...0x0D).contains(byte) || byte == UInt8(ascii: ";") {
                index += 1
            } else if byte == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                index += 2
                while index < bytes.count,
                    !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    index += 1
                }
                index = min(index + 2, bytes.count)
            } else {
                return index
            }
        }
        return index
    }
}
