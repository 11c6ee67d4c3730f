import CellarKit
import TestSupport
import Testing

@testable import CellarDqlite

/// The remote connection's statements are those `sqlite3_complete` finds, found in one pass.
@Suite struct StatementSplitterTests {
    @Test(arguments: [
        ("SELECT 1; SELECT 2", ["SELECT 1;", "SELECT 2"]),
        ("  -- lead\n SELECT 'a;b'; ;; /* c; */ SELECT [x;y]", ["SELECT 'a;b';", "SELECT [x;y]"]),
        (
            "CREATE TRIGGER g AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END; SELECT 3;",
            ["CREATE TRIGGER g AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END;", "SELECT 3;"]
        ),
        ("SELECT 1 -- trailing", ["SELECT 1 -- trailing"]),
        ("", []), (" ; -- nothing", []),
    ])
    func splitsWhereSQLiteCompletes(text: String, statements: [String]) {
        let pieces = StatementSplitter.split(text)
        #expect(pieces.map(\.sql) == statements)
        for piece in pieces {
            #expect(Array(text.utf8)[piece.offset...].starts(with: Array(piece.sql.utf8)))
        }
    }

    /// Every end the splitter finds is one `sqlite3_complete` agrees with, on random text.
    @Test func endsAgreeWithSQLiteCompleteOnRandomText() {
        var generator = SeededGenerator(seed: 0xD51)
        let parts = [";", " ", "'", "\"", "[", "]", "--", "\n", "/*", "*/", "x", "BEGIN", "END", "CREATE", "TRIGGER", "SELECT 1"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...10, using: &generator)).map { _ in parts.randomElement(using: &generator)! }
                .joined()
            // Each statement but one running to the end of the text ends where the text so far is complete.
            for piece in StatementSplitter.split(text) where piece.offset + piece.sql.utf8.count < text.utf8.count {
                let prefix = String(decoding: Array(text.utf8)[..<(piece.offset + piece.sql.utf8.count)], as: UTF8.self)
                #expect(Database.isComplete(prefix), "\(text.debugDescription)")
            }
        }
    }

    /// Four times the semicolons inside one literal cost about four times the work; checking
    /// `sqlite3_complete` on a copy at every `;` (as before) cost sixteen.
    @Test func semicolonsInsideALiteralCostInProportion() {
        func statement(_ semicolons: Int) -> String {
            "INSERT INTO t VALUES ('" + String(repeating: "a;", count: semicolons) + "');"
        }
        let small = statement(5_000)
        let large = statement(20_000)
        let smallCost = ThreadCPUClock.cost { _ = StatementSplitter.split(small) }
        let largeCost = ThreadCPUClock.cost { _ = StatementSplitter.split(large) }
        #expect(largeCost / smallCost < 10, "5000: \(smallCost) s, 20000: \(largeCost) s of CPU")
    }
}
