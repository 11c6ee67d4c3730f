/// What the planner must read from a `CREATE` statement's text, read by the one lexer (``SQLLexer``):
/// SQLite's introspection says which columns a table has, not how each was written, and a plan copies
/// the text as written (text is copied, never re-printed).
///
/// Every function takes the SQL that SQLite stored in `sqlite_schema`, which starts with the object's
/// keywords (`CREATE TABLE `) and continues with the statement as written from the object's name on.
struct DefinitionText {
    /// One column definition of a `CREATE TABLE`, as written.
    struct ColumnDefinition {
        /// The column's name (unquoted).
        let name: String
        /// The definition's text, from the name to the last token before its `,` or `)`.
        let text: String
    }

    private let bytes: [UInt8]
    private let tokens: [SQLToken]

    init(_ sql: String) {
        bytes = Array(sql.utf8)
        tokens = SQLLexer(bytes).tokens().filter { !$0.isTrivia }
    }

    /// The name a token stands for (a string literal is a name where SQLite expects one).
    private func name(_ token: SQLToken) -> String? {
        token.identifierName(in: bytes) ?? token.stringValue(in: bytes)
    }

    private func isPunctuation(_ token: SQLToken, _ text: String) -> Bool {
        token.kind != .string && token.kind != .quotedIdentifier && token.text(in: bytes) == text
    }

    /// The index of the `(` that opens a `CREATE TABLE`'s definitions, if any (`AS SELECT` has none).
    private var openingParenthesis: Int? {
        for (index, token) in tokens.enumerated() {
            if token.isWord("as", in: bytes) { return nil }
            if isPunctuation(token, "(") { return index }
        }
        return nil
    }

    /// The statement with the table's name (everything between `CREATE TABLE` and the opening
    /// parenthesis, a schema prefix included) replaced by `replacement`, an already quoted name.
    func renamingTable(to replacement: String) -> String? {
        guard let open = openingParenthesis, open >= 3 else { return nil }
        let start = tokens[2].range.lowerBound
        let end = tokens[open].range.lowerBound
        return String(decoding: bytes[..<start], as: UTF8.self) + replacement + " "
            + String(decoding: bytes[end...], as: UTF8.self)
    }

    /// The column definitions of a `CREATE TABLE`, in order, without its table constraints.
    var columnDefinitions: [ColumnDefinition] {
        guard let open = openingParenthesis else { return [] }
        var definitions: [ColumnDefinition] = []
        var depth = 0
        var partStart = open + 1
        for index in (open + 1)..<tokens.count {
            let token = tokens[index]
            if isPunctuation(token, "(") {
                depth += 1
            } else if isPunctuation(token, ")") && depth > 0 {
                depth -= 1
            } else if depth == 0 && (isPunctuation(token, ",") || isPunctuation(token, ")")) {
                if let definition = columnDefinition(tokens[partStart..<index]) { definitions.append(definition) }
                partStart = index + 1
                if isPunctuation(token, ")") { break }
            }
        }
        return definitions
    }

    private static let constraintWords: [StaticString] = ["constraint", "primary", "unique", "check", "foreign"]

    private func columnDefinition(_ part: ArraySlice<SQLToken>) -> ColumnDefinition? {
        guard let first = part.first, let last = part.last, let columnName = name(first) else { return nil }
        if first.kind == .keyword, Self.constraintWords.contains(where: { first.isWord($0, in: bytes) }) { return nil }
        return ColumnDefinition(
            name: columnName, text: String(decoding: bytes[first.range.lowerBound..<last.range.upperBound], as: UTF8.self))
    }

    /// Whether the statement has the word `AUTOINCREMENT` (only a keyword there; a name using it is
    /// quoted).
    var hasAutoincrement: Bool { tokens.contains { $0.isWord("autoincrement", in: bytes) } }

    /// The names (case-folded) that the statement's words and quoted identifiers could refer to: what
    /// a view or trigger may read. A word that is a name and a keyword at once counts; an extra name
    /// only makes the planner drop and recreate an object it did not have to.
    var referencedNames: Set<String> {
        Set(tokens.compactMap { token in token.identifierName(in: bytes) ?? token.stringValue(in: bytes) }.map(SchemaCatalog.key))
    }
}
