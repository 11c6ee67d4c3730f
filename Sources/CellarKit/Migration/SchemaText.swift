/// `CREATE` statements reduced to what they mean, so that two schemas compare equal when they differ
/// only in whitespace, comments, the case of keywords and identifiers, or identifier quoting
/// (`"wine"`, `[wine]`, `` `wine` `` and `wine` are one name in SQLite).
enum SchemaText {
    /// The tokens of `sql` (``SQLLexer``), comments dropped, names and keywords lowercased and quoted
    /// names unquoted, string literals as written, joined by single spaces.
    ///
    /// ```swift
    /// SchemaText.normalized("CREATE  TABLE \"Wine\"(id INTEGER) -- note")   // create table wine ( id integer )
    /// ```
    static func normalized(_ sql: String) -> String {
        let bytes = Array(sql.utf8)
        var tokens: [String] = []
        for token in SQLLexer(bytes) where !token.isTrivia {
            switch token.kind {
            case .keyword, .identifier, .quotedIdentifier:
                tokens.append((token.identifierName(in: bytes) ?? token.text(in: bytes)).lowercased())
            default:
                tokens.append(token.text(in: bytes))
            }
        }
        while tokens.last == ";" { tokens.removeLast() }
        return tokens.joined(separator: " ")
    }
}
