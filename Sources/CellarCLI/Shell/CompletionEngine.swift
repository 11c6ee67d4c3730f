import CellarKit

/// What Tab offers for a line and a cursor position: pure logic, tested without readline.
///
/// - At the start of a line (no statement pending), `.` + letters complete dot-command names.
/// - After `.read`, `.open` and `.output`, file paths; after `.schema`, `.tables`, `.indexes`, tables;
///   after `.mode`, the modes; after the commands that take `on|off` (`.headers`, `.timer`, `.eqp`, …),
///   `on` and `off`.
/// - In SQL, `qualifier.` completes the columns of the table or alias `qualifier`
///   (`SELECT w.| FROM wine w`); otherwise keywords, table and view names, and the columns of the
///   tables named anywhere in the statement, or of every table while it names none.
/// - Inside a string literal, a quoted identifier or a comment, nothing.
struct CompletionEngine {
    /// A directory entry, for completing paths.
    struct FileEntry: Equatable, Sendable {
        let name: String
        let isDirectory: Bool
    }

    /// The characters that end the word being completed (readline is told the same set).
    static let wordBreakCharacters = " \t\n\"'`@$><=;|&{(,)"

    /// The keywords after which only a table or view name makes sense.
    static let tableKeywords: Set<String> = ["FROM", "JOIN", "INTO", "UPDATE", "TABLE"]

    /// The tables and columns of the database.
    let schema: SchemaSnapshot
    /// The entries of a directory (`""` for the working directory).
    let listDirectory: (String) -> [FileEntry]

    /// The candidates that may replace the word before `cursor` (a byte offset into `line`).
    ///
    /// - Parameter pending: the earlier lines of the statement being typed, if any.
    func candidates(line: String, cursor: Int, pending: String = "") -> [String] {
        let before = String(decoding: line.utf8.prefix(cursor), as: UTF8.self)
        let leading = before.drop { $0 == " " || $0 == "\t" }
        if pending.isEmpty, leading.first == "." {
            return dotCommandCandidates(Substring(leading), fullLine: line)
        }
        let typed = pending + "\n" + before
        // Inside a string, a quoted name or a comment the user writes prose or data: nothing to offer.
        if Self.endsInsideTextOrComment(typed) { return [] }
        let word = Self.word(before, breaks: Self.wordBreakCharacters)
        let statement = pending + "\n" + line
        if let dot = word.lastIndex(of: ".") {
            let qualifier = String(word[..<dot])
            let prefix = String(word[word.index(after: dot)...])
            let table = Self.aliases(in: statement, schema: schema)[qualifier.lowercased()] ?? qualifier
            let columns = schema.columns(of: table) ?? []
            return Self.matching(columns, prefix: prefix).map { qualifier + "." + $0 }
        }
        let earlier = SQLLexer.names(in: pending + "\n" + String(before.dropLast(word.count)))
        if let previous = earlier.last?.uppercased(), Self.tableKeywords.contains(previous) {
            return schema.tableNames(startingWith: word)
        }
        let isLowercase = word.contains { $0.isLowercase } && !word.contains { $0.isUppercase }
        let keywords = Self.matching(SQLKeywords.all, prefix: word).map { isLowercase ? $0.lowercased() : $0 }
        let mentioned = Self.mentionedTables(in: statement, schema: schema)
        guard mentioned.isEmpty else {
            let columns = Self.matching(mentioned.flatMap { schema.columns(of: $0) ?? [] }, prefix: word)
            return Self.unique(schema.tableNames(startingWith: word) + columns + keywords)
        }
        // Until the statement names a table (`SELECT producer_|`), any table's column may be meant. The
        // names come from one index, each once, so that 100,000 of them are not hashed again here.
        return schema.tableAndColumnNames(startingWith: word) + keywords.filter { !schema.containsName($0) }
    }

    // MARK: - Dot-commands

    private func dotCommandCandidates(_ text: Substring, fullLine: String) -> [String] {
        guard let blank = text.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            return Self.matching(DotCommandCatalog.names.map { "." + $0 }, prefix: String(text))
        }
        let name = String(text[text.index(after: text.startIndex)..<blank])
        let word = Self.argumentWord(text[blank...])
        switch DotCommandCatalog.entry(name)?.completion ?? .none {
        case .paths: return pathCandidates(word)
        case .tables: return schema.tableNames(startingWith: word)
        case .modes: return Self.matching(OutputMode.allCases.map(\.rawValue) + ["auto", "tabs"], prefix: word)
        case .onOff: return Self.matching(["on", "off"], prefix: word)
        case .none: return []
        }
    }

    private func pathCandidates(_ word: String) -> [String] {
        let slash = word.lastIndex(of: "/")
        let directory = slash.map { String(word[...$0]) } ?? ""
        let prefix = slash.map { String(word[word.index(after: $0)...]) } ?? word
        return listDirectory(directory)
            .filter { $0.name.hasPrefix(prefix) && ($0.name.first != "." || prefix.first == ".") }
            .map { directory + $0.name + ($0.isDirectory ? "/" : "") }
            .sorted()
    }

    /// The dot-command argument being typed, without its opening quote (`.read 'my fi` → `my fi`), as
    /// readline hands it over when told that `'` and `"` quote.
    static func argumentWord(_ text: Substring) -> String {
        var word = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == " " || character == "\t" {
                word = ""
            } else if (character == "'" || character == "\"") && word.isEmpty {
                quote = character
            } else {
                word.append(character)
            }
        }
        return word
    }

    // MARK: - Reading the statement

    /// Whether `text` ends inside a string, a quoted name or a comment (a line comment runs to the end
    /// of the line being typed).
    static func endsInsideTextOrComment(_ text: String) -> Bool {
        guard let last = SQLLexer(text).tokens().last else { return false }
        return last.isOpen || last.kind == .lineComment
    }

    /// The text after the last word-break character.
    static func word(_ text: String, breaks: String) -> String {
        String(text.reversed().prefix { !breaks.contains($0) }.reversed())
    }

    /// Aliases in `statement`, lowercased, each mapped to its table: `FROM wine w`, `JOIN wine AS w`.
    static func aliases(in statement: String, schema: SchemaSnapshot) -> [String: String] {
        let tokens = SQLLexer.names(in: statement)
        var result: [String: String] = [:]
        for (index, token) in tokens.enumerated() where schema.columns(of: token) != nil {
            var next = index + 1
            if next < tokens.count, tokens[next].uppercased() == "AS" { next += 1 }
            guard next < tokens.count, !SQLKeywords.set.contains(tokens[next].uppercased()) else { continue }
            result[tokens[next].lowercased()] = token
        }
        return result
    }

    /// The tables and views of `schema` that `statement` names.
    static func mentionedTables(in statement: String, schema: SchemaSnapshot) -> [String] {
        unique(SQLLexer.names(in: statement).filter { schema.columns(of: $0) != nil })
    }

    private static func matching(_ candidates: [String], prefix: String) -> [String] {
        let lowered = prefix.lowercased()
        return candidates.filter { $0.lowercased().hasPrefix(lowered) }
    }

    private static func unique(_ items: [String]) -> [String] {
        var seen: Set<String> = []
        return items.filter { seen.insert($0).inserted }
    }
}
