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
}
