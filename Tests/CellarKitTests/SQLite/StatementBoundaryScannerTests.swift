import CellarKit
import TestSupport
import Testing

/// The incremental scanner answers as `sqlite3_complete` does on the whole text, however the text is
/// cut into pieces.
@Suite struct StatementBoundaryScannerTests {
    /// Punctuation is drawn half the time, so that comment and quote edges meet often.
    private static let punctuation = [";", " ", "\n", "'", "\"", "`", "[", "]", "-", "--", "/", "*", "/*", "*/", "$", "é"]
    private static let words = [
        "\t", "\r", "\u{0B}", "\u{0C}", "x", "_", "1", "🍷", "create", "CREATE", "Create", "trigger", "TRIGGER", "temp",
        "temporary", "TEMPORARY", "end", "END", "explain", "EXPLAIN", "begin", "select", "createx", "xend", "end$",
        "trigger_", "tempo", "e", "nd", "te", "mp", "SELECT 1", "CREATE TRIGGER g AFTER INSERT ON t BEGIN SELECT 1; END",
    ]

    @Test(arguments: [
        ("SELECT 1", false), ("SELECT 1;", true), ("SELECT 1; -- note", true), ("SELECT 1; /* open", false),
        ("SELECT 'a;", false), ("SELECT [a;", false), ("CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1;", false),
        ("CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1; END;", true), ("", false), (";", true),
        ("EXPLAIN CREATE TEMP TRIGGER t AFTER INSERT ON x BEGIN SELECT 1; END ;", true),
        ("explain$ create trigger x begin select 1;", true), ("explain\u{0B} create trigger x begin select 1;", false),
    ])
    func answersAsSQLiteDoes(text: String, isComplete: Bool) {
        var scanner = StatementBoundaryScanner()
        scanner.scan(text)
        #expect(scanner.isComplete == isComplete)
        #expect(Database.isComplete(text) == isComplete)
    }

    @Test func randomTextInRandomPiecesMatchesSQLiteComplete() {
        var generator = SeededGenerator(seed: 0x5CA7)
        for _ in 0..<Soak.count(suite: 20_000, soak: 1_000_000) {
            let count = Int.random(in: 1...14, using: &generator)
            let text = Array(
                (0..<count).map { _ in
                    (Bool.random(using: &generator) ? Self.punctuation : Self.words).randomElement(using: &generator)!
                }
                .joined().utf8)
            var scanner = StatementBoundaryScanner()
            var position = 0
            var lastEnd: Int?
            while position < text.count {
                let end = min(text.count, position + Int.random(in: 1...8, using: &generator))
                let found = text.withUnsafeBufferPointer { scanner.scan(UnsafeBufferPointer(rebasing: $0[position..<end])) }
                if let found { lastEnd = position + found }
                position = end
                let prefix = String(decoding: text[..<end], as: UTF8.self)
                #expect(scanner.isComplete == Database.isComplete(prefix), "\(prefix.debugDescription)")
            }
            #expect(lastEnd == Self.lastStatementEnd(in: text), "\(String(decoding: text, as: UTF8.self).debugDescription)")
        }
    }

    /// The end of the last `;` that ends a statement, by `sqlite3_complete` alone: the text up to it is
    /// complete, and a word after it would not be (a `;` inside a `--` comment leaves it complete).
    private static func lastStatementEnd(in text: [UInt8]) -> Int? {
        text.indices.reversed().first { index in
            guard text[index] == UInt8(ascii: ";") else { return false }
            let prefix = String(decoding: text[...index], as: UTF8.self)
            return Database.isComplete(prefix) && !Database.isComplete(prefix + "x")
        }.map { $0 + 1 }
    }
}
