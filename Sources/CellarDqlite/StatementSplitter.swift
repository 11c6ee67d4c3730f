import CellarKit

/// Splits SQL text into statements with their byte offsets, locally, before anything is sent: a
/// statement ends at the first `;` where `sqlite3_complete` would say the text so far is complete (so
/// triggers' `BEGIN … END;` bodies, strings and comments stay whole), found by one pass of
/// ``StatementBoundaryScanner`` over the text, however many `;` it holds.
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
        let text = Array(sql.utf8)
        return text.withUnsafeBufferPointer { buffer in
            var pieces: [Piece] = []
            var start = SQLLexer.statementStart(in: buffer, from: 0)
            while start < buffer.count {
                let end = end(in: buffer, from: start)
                pieces.append(
                    Piece(sql: String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self), offset: start)
                )
                start = SQLLexer.statementStart(in: buffer, from: end)
            }
            return pieces
        }
    }

    /// The offset just past the statement that starts at `start`: after the `;` that completes it, or
    /// the end of the text.
    static func end(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        StatementBoundaryScanner.firstEnd(in: text, from: start) ?? text.count
    }
}
