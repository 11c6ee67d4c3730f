/// One token of SQL text as the shell sees it, for completion and highlighting: what kind it is and
/// where it lies, in UTF-8 bytes of the text it came from.
struct SQLToken: Equatable {
    /// What a token is, following SQLite's tokenizer (<https://sqlite.org/lang_expr.html>).
    enum Kind: Equatable {
        /// A bare word: a keyword or an identifier.
        case word
        /// `"name"`, `` `name` `` or `[name]`.
        case quotedIdentifier
        /// `'text'`, or a blob literal `X'…'`.
        case string
        /// An integer, real or hexadecimal literal.
        case number
        /// `-- …` up to the end of its line, or `/* … */`.
        case comment
        /// `?`, `?NNN`, `:name`, `@name`, `$name`.
        case parameter
        /// Blanks and line breaks.
        case whitespace
        /// Any other character: operators, commas, parentheses, `;`.
        case punctuation
    }

    /// What the token is.
    let kind: Kind
    /// Where it lies, as UTF-8 byte offsets.
    let range: Range<Int>
    /// Whether the text ends inside the token: a string, quoted identifier or block comment without
    /// its closing quote or `*/`, or a line comment with no line break after it.
    let isOpen: Bool
}
