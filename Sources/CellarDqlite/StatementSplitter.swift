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
        let bytes = Array(sql.utf8)
        var pieces: [Piece] = []
        var start = firstToken(in: bytes, from: 0)
        var index = start
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ";"), isComplete(bytes[start...index]) {
                pieces.append(Piece(sql: String(decoding: bytes[start...index], as: UTF8.self), offset: start))
                start = firstToken(in: bytes, from: index + 1)
                index = start
            } else {
                index += 1
            }
        }
        if start < bytes.count {
            pieces.append(Piece(sql: String(decoding: bytes[start...], as: UTF8.self), offset: start))
        }
        return pieces
    }

    private static func isComplete(_ text: ArraySlice<UInt8>) -> Bool {
        (Array(text) + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { sqlite3_complete($0.baseAddress) != 0 }
        }
    }

    /// The offset of the first byte at or after `start` that is not whitespace, a comment or a `;`.
    static func firstToken(in bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || (0x09...0x0D).contains(byte) || byte == UInt8(ascii: ";") {
                index += 1
            } else if byte == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
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
