internal import CSQLite

/// Splits SQL text into statements with their byte offsets, locally, before anything is sent: a
/// statement ends at a `;` where `sqlite3_complete` says the text so far is complete (so triggers'
/// `BEGIN … END;` bodies, strings and comments stay whole).
enum StatementSplitter {
    /// One statement of the text.
    struct Piece: Equatable {
        /// The statement's text, from its first token (trivia before it skipped) to its `;` included.
        var sql: String
        /// The byte offset of its first token in the whole text.
        var offset: Int
    }

    /// The statements of `sql`, without empty ones (only whitespace, comments or `;`).
    static func split(_ sql: String) -> [Piece] {
        var text = Array(sql.utf8)
        let length = text.count
        text.append(0)
        return text.withUnsafeBufferPointer { buffer in
            var pieces: [Piece] = []
            var start = firstToken(in: buffer, from: 0, length: length)
            while start < length {
                let end = end(in: buffer, from: start, length: length)
                pieces.append(
                    Piece(sql: String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self), offset: start)
                )
                start = firstToken(in: buffer, from: end, length: length)
            }
            return pieces
        }
    }

    /// The offset just past the statement that starts at `start`: after the `;` that completes it, or
    /// the end of the text. Each check copies only the statement, so a long script stays linear.
    static func end(in text: UnsafeBufferPointer<UInt8>, from start: Int, length: Int) -> Int {
        var index = start
        while index < length {
            if text[index] == UInt8(ascii: ";"), isComplete(UnsafeBufferPointer(rebasing: text[start...index])) {
                return index + 1
            }
            index += 1
        }
        return length
    }

    private static func isComplete(_ statement: UnsafeBufferPointer<UInt8>) -> Bool {
        (Array(statement) + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { sqlite3_complete($0.baseAddress) != 0 }
        }
    }

    /// The offset of the first byte at or after `start` that is not whitespace, a comment or a `;`.
    static func firstToken(in text: UnsafeBufferPointer<UInt8>, from start: Int, length: Int) -> Int {
        var index = start
        while index < length {
            let byte = text[index]
            if byte == 0x20 || (0x09...0x0D).contains(byte) || byte == UInt8(ascii: ";") {
                index += 1
            } else if byte == UInt8(ascii: "-"), index + 1 < length, text[index + 1] == UInt8(ascii: "-") {
                while index < length, text[index] != UInt8(ascii: "\n") { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < length, text[index + 1] == UInt8(ascii: "*") {
                index += 2
                while index + 1 < length, !(text[index] == UInt8(ascii: "*") && text[index + 1] == UInt8(ascii: "/")) {
                    index += 1
                }
                index = min(index + 2, length)
            } else {
                return index
            }
        }
        return length
    }

    /// `firstToken` over a byte array.
    static func firstToken(in bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { firstToken(in: $0, from: start, length: bytes.count) }
    }
}
