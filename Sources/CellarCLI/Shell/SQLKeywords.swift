import CellarKit

/// The SQL keywords completion offers and highlighting colours: those of the SQLite linked in
/// (`sqlite3_keyword_name`, <https://sqlite.org/c3ref/keyword_check.html>).
enum SQLKeywords {
    /// Every keyword, upper case, in alphabetical order.
    static let all: [String] = SQLLexer.keywords.sorted()

    /// The keywords as a set, for telling an alias from a keyword.
    static let set: Set<String> = Set(all)
}
