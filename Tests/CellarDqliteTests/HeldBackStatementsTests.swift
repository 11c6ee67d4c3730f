import CellarKit
import TestSupport
import Testing

@testable import CellarDqlite

/// Schema statements joined into one text for the leader: only when the text splits back into exactly
/// those statements.
struct HeldBackStatementsTests {
    @Test func piecesGoBetweenASavepointAndItsRelease() {
        let pieces = [
            HeldBackStatements.Piece(sql: "CREATE TABLE a(x);", offset: 0),
            HeldBackStatements.Piece(sql: "CREATE INDEX ax ON a(x)\n-- last, no semicolon\n", offset: 19),
        ]
        #expect(
            HeldBackStatements.batchText(pieces)
                == "SAVEPOINT cellar_batch;\nCREATE TABLE a(x);\nCREATE INDEX ax ON a(x)\n-- last, no semicolon\n;\n"
                + "RELEASE cellar_batch")
    }

    @Test(arguments: ["CREATE TABLE z(a) -- a comment that would swallow the next statement", "CREATE TABLE z(a) /* open"])
    func aStatementThatWouldSwallowTheNextIsNotJoined(sql: String) {
        let pieces = [
            HeldBackStatements.Piece(sql: sql, offset: 0), HeldBackStatements.Piece(sql: "INSERT INTO z VALUES (1)", offset: 80),
        ]
        #expect(HeldBackStatements.batchText(pieces) == nil)
    }

    /// Statements the scanner found complete in random texts join without the text being split again,
    /// into the very text that splitting it again accepts; one that is not complete is still checked.
    @Test func completePiecesJoinAsTheCheckedTextDoes() {
        var generator = SeededGenerator(seed: 0xBA7C)
        let parts = [";", " ", "'", "\"", "[", "]", "--", "\n", "/*", "*/", "x", "BEGIN", "END", "CREATE", "TRIGGER", "SELECT 1"]
        var completeCount = 0
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...10, using: &generator)).map { _ in parts.randomElement(using: &generator)! }
                .joined()
            let bytes = Array(text.utf8)
            var pieces: [HeldBackStatements.Piece] = []
            bytes.withUnsafeBufferPointer { buffer in
                var start = SQLLexer.statementStart(in: buffer, from: 0)
                while start < buffer.count {
                    let found = StatementBoundaryScanner.firstEnd(in: buffer, from: start)
                    let end = found ?? buffer.count
                    let sql = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
                    pieces.append(HeldBackStatements.Piece(sql: sql, offset: start, isComplete: found != nil))
                    start = SQLLexer.statementStart(in: buffer, from: end)
                }
            }
            let checked = HeldBackStatements.batchText(pieces.map { HeldBackStatements.Piece(sql: $0.sql, offset: $0.offset) })
            let joined = HeldBackStatements.batchText(pieces)
            if pieces.allSatisfy(\.isComplete) {
                completeCount += 1
                #expect(checked != nil && joined == checked, "\(text.debugDescription)")
            } else {
                #expect(joined == checked, "\(text.debugDescription)")
            }
        }
        #expect(completeCount > 100)
    }

    /// A piece that ends without its `;` is checked even when the others are complete.
    @Test func anIncompletePieceIsStillChecked() {
        let pieces = [
            HeldBackStatements.Piece(sql: "CREATE TABLE a(x);", offset: 0, isComplete: true),
            HeldBackStatements.Piece(sql: "CREATE TABLE z(a) -- swallows", offset: 19),
            HeldBackStatements.Piece(sql: "INSERT INTO z VALUES (1);", offset: 50, isComplete: true),
        ]
        #expect(HeldBackStatements.batchText(pieces) == nil)
    }
}
