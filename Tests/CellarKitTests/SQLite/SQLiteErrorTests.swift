import CellarKit
import Testing

@Suite struct SQLiteErrorTests {
    /// Where errors point: SQLite's own token offset at prepare time, the statement's first character
    /// at step time; lines and columns are 1-based and count characters.
    @Test(arguments: [
        ("SELECT 1;\nSELECT 2;\nSELEC 3;\nSELECT 4;\nSELECT 5;", 3, 1, "near \"SELEC\": syntax error"),
        ("SELECT 1;\n\n  SELECT * FROM nowhere;", 3, 3, "no such table: nowhere"),
        ("-- a comment; with a semicolon\nSELECT 'a;b';\nSELECT 1 +;", 3, 11, "near \";\": syntax error"),
        ("SELECT 'é';  /* ; */ SELECT x FROM y;", 1, 22, "no such table: y"),
        (";\n ;; SELECT * FROM nope;", 2, 5, "no such table: nope"),
        (
            "CREATE TABLE t(a UNIQUE);\nINSERT INTO t VALUES (1);\n  INSERT INTO t VALUES (1);", 3, 3,
            "UNIQUE constraint failed: t.a"
        ),
        (
            "CREATE TABLE t(a);\nCREATE TRIGGER g AFTER INSERT ON t BEGIN\n  SELECT 1;\n  SELECT 2;\nEND;\nSELECT bad;", 6, 8,
            "no such column: bad"
        ),
    ])
    func errorsNameLineAndColumn(script: String, line: Int, column: Int, message: String) throws {
        let database = try Database(path: ":memory:")
        let error = #expect(throws: SQLiteError.self) { try database.execute(script) }
        #expect(error?.message == message)
        #expect(error?.location == SourceLocation(line: line, column: column))
        #expect(error?.sql == script)
    }

    @Test func extendedAndPrimaryCodesAreBothAvailable() throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t(a NOT NULL)")
        let error = #expect(throws: SQLiteError.self) { try database.execute("INSERT INTO t VALUES (NULL)") }
        #expect(error?.resultCode == .constraint)
        #expect(error?.code == 1299)  // SQLITE_CONSTRAINT_NOTNULL
    }

    @Test func openingAFileThatIsNotADatabaseFailsOnFirstUse() throws {
        let path = "/tmp/cellar-not-a-db-\(UInt64.random(in: 0...UInt64.max))"
        try FileContents.write(Array("hello, this is not SQLite".utf8), to: path)
        defer { _ = try? FileContents.write([], to: path) }
        let database = try Database(path: path)
        let error = #expect(throws: SQLiteError.self) { try database.execute("SELECT * FROM sqlite_schema") }
        #expect(error?.resultCode == .notADatabase)
    }
}
