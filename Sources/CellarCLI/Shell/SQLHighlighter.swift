import CellarKit

/// Colours SQL being typed, for the input line on a colour terminal: keywords, strings (and blob
/// literals), numbers and comments, each wrapped in its SGR code and a reset. Only colour codes are
/// added: with them removed the text is the input, byte for byte.
enum SQLHighlighter {
    static let keyword = "\u{1B}[1;34m"
    static let string = "\u{1B}[32m"
    static let number = "\u{1B}[33m"
    static let comment = "\u{1B}[90m"
    static let reset = "\u{1B}[0m"

    /// `line` with colour codes, read as the continuation of `pending` (the statement's earlier
    /// lines), so that a string or comment opened there is coloured on this line too.
    static func highlight(_ line: String, after pending: String = "") -> String {
        let text = pending.isEmpty ? line : pending + "\n" + line
        let bytes = Array(text.utf8)
        let lineStart = pending.isEmpty ? 0 : pending.utf8.count + 1
        var result = ""
        for token in SQLLexer(bytes) where token.range.upperBound > lineStart {
            let range = max(token.range.lowerBound, lineStart)..<token.range.upperBound
            let piece = String(decoding: bytes[range], as: UTF8.self)
            guard let colour = colour(of: token, text: piece) else {
                result += piece
                continue
            }
            result += colour + piece + reset
        }
        return result
    }

    private static func colour(of token: SQLToken, text: String) -> String? {
        switch token.kind {
        case .keyword: keyword
        case .string, .blob: string
        case .integer, .float: number
        case .lineComment, .blockComment: comment
        default: nil
        }
    }
}
