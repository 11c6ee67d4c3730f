/// The tokens of one statement of a migration file, as the one lexer reads them (``SQLLexer``), with
/// the parenthesis depth of each: what lint reads from the text where SQLite's authorizer and
/// pragmas say nothing (a `WHERE`, an operator, a keyword only newer releases know).
struct StatementTokens {
    /// The whole file's bytes.
    let bytes: [UInt8]
    /// The statement's tokens, whitespace and comments left out.
    let tokens: [SQLToken]
    /// The parenthesis depth of each token (0 at the statement's own level).
    let depths: [Int]

    /// The tokens of `bytes` from `start` up to `end`.
    init(_ bytes: [UInt8], from start: Int, to end: Int) {
        self.bytes = bytes
        var tokens: [SQLToken] = []
        var depths: [Int] = []
        var depth = 0
        for token in SQLLexer(bytes, from: start) {
            guard token.range.lowerBound < end else { break }
            guard !token.isTrivia else { continue }
            if token.kind == .operator, token.range.count == 1, bytes[token.range.lowerBound] == UInt8(ascii: ")") {
                depth = max(depth - 1, 0)
            }
            tokens.append(token)
            depths.append(depth)
            if token.kind == .operator, token.range.count == 1, bytes[token.range.lowerBound] == UInt8(ascii: "(") { depth += 1 }
        }
        self.tokens = tokens
        self.depths = depths
    }

    var count: Int { tokens.count }

    /// The token's text, lowercased when it is a bare word.
    func word(_ index: Int) -> String? {
        guard index >= 0, index < tokens.count, tokens[index].isWord else { return nil }
        return tokens[index].text(in: bytes).lowercased()
    }

    /// The token's text as written.
    func text(_ index: Int) -> String { tokens[index].text(in: bytes) }

    /// Whether token `index` is the punctuation or operator `symbol`.
    func isSymbol(_ index: Int, _ symbol: String) -> Bool {
        index >= 0 && index < tokens.count && tokens[index].kind == .operator && text(index) == symbol
    }

    /// The byte offset of token `index` within the file.
    func offset(_ index: Int) -> Int { tokens[index].range.lowerBound }

    /// The first bare word `word` at the statement's own level (outside parentheses), if any.
    func topLevel(_ word: String) -> Int? {
        tokens.indices.first { depths[$0] == 0 && self.word($0) == word }
    }

    /// The first token that is the bare word `word`, anywhere.
    func first(_ word: String) -> Int? {
        tokens.indices.first { self.word($0) == word }
    }
}
