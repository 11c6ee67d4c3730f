import CellarKit
import Testing

/// `execute` and `query` use their arguments up across the statements of the text, and a missing or
/// surplus argument is an error, never a silent NULL.
@Suite struct ArgumentBindingTests {
    @Test func argumentsAreUsedUpAcrossStatements() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (a, b)")
        try db.execute("INSERT INTO t VALUES (?, ?); INSERT INTO t VALUES (?, 'x')", [1, 2, 3])
        #expect(
            try db.query("SELECT a, b FROM t ORDER BY a").map(\.values) == [
                [.integer(1), .integer(2)], [.integer(3), .text("x")],
            ])
        let rows = try db.query("SELECT ?; SELECT ? + ?", ["a", 1, 2])
        #expect(rows.map(\.values) == [[.text("a")], [.integer(3)]])
    }

    @Test func aMissingArgumentIsAnErrorNotANull() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (a NOT NULL DEFAULT 0)")
        let error = #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", [1])
        }
        #expect(error?.resultCode == .range)
        #expect(error?.message.hasPrefix("missing argument") == true)
        #expect(error?.location == SourceLocation(line: 1, column: 27))
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (?)") }
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(1))
    }

    @Test func aSurplusArgumentIsAnError() throws {
        let db = try Database(path: ":memory:")
        let error = #expect(throws: SQLiteError.self) { try db.query("SELECT ?", [1, 2]) }
        #expect(error?.message == "1 argument was left over: the statements have 1 parameter in all")
        #expect(throws: SQLiteError.self) { try db.execute("SELECT 1", ["unused"]) }
    }
}
