import CellarKit
import Testing

/// The classic tutorials' operations, redone with bound parameters, transactions and clear errors.
@Suite struct TutorialOperationsTests {
    @Test func insertsWineryAndWineWithLabelBytesIntact() throws {
        let database = try WinerySchema.makeDatabase()
        try database.execute("INSERT INTO wineries (name, country, rating) VALUES (?, ?, ?)", ["Ridge", "USA", 4.5])
        let wineryID = try database.lastInsertRowID
        let label: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x00, 0x0D, 0x0A, 0x1A, 0xFF, 0x00]
        try database.execute(
            "INSERT INTO wine (name, rating, winery_id, label) VALUES (?, ?, ?, ?)", ["Monte Bello", 5, wineryID, label])
        let row = try #require(
            try database.query("SELECT w.name, w.label, y.rating FROM wine w JOIN wineries y ON y.id = w.winery_id").first)
        #expect(row["name"] == .text("Monte Bello"))
        #expect(row["label"] == .blob(label))
        #expect(row["rating"] == .real(4.5))
    }

    @Test func preparedInsertReusedAThousandTimes() throws {
        let database = try WinerySchema.makeDatabase()
        let insert = try database.prepare("INSERT INTO wineries (name, rating) VALUES (:name, :rating)")
        try database.transaction {
            for number in 0..<1000 {
                try insert.bind("Winery \(number)", named: ":name")
                try insert.bind(Double(number) / 10, named: ":rating")
                try insert.run()
                try insert.reset()
            }
        }
        #expect(try database.scalar("SELECT count(*) FROM wineries") == .integer(1000))
        #expect(try database.scalar("SELECT rating FROM wineries WHERE name = 'Winery 999'") == .real(99.9))
    }

    @Test func injectionAttemptIsStoredLiterallyAndDropsNothing() throws {
        let database = try WinerySchema.makeDatabase()
        let hostile = "O'Brien'); DROP TABLE wine;--"
        try database.execute("INSERT INTO wineries (name) VALUES (?)", [hostile])
        #expect(try database.scalar("SELECT name FROM wineries") == .text(hostile))
        #expect(try database.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'wine'") == .integer(1))
    }

    @Test func lastInsertRowIDAndChangesFollowEachInsert() throws {
        let database = try WinerySchema.makeDatabase()
        try database.execute("INSERT INTO wineries (id, name) VALUES (41, 'a')")
        try database.execute("INSERT INTO wineries (name) VALUES ('b')")
        #expect(try database.lastInsertRowID == 42)
        try database.execute("UPDATE wineries SET country = 'FR'")
        #expect(try database.changes == 2)
        #expect(try database.totalChanges == 4)
    }

    /// What each conflict clause does when the second row of a three-row insert hits a UNIQUE
    /// constraint, inside a transaction that already inserted `x` (<https://sqlite.org/lang_conflict.html>).
    @Test(arguments: [
        ("REPLACE", false, ["a:new", "b:b", "c:c", "x:x"]),
        ("IGNORE", false, ["a:orig", "b:b", "c:c", "x:x"]),
        ("ABORT", true, ["a:orig", "x:x"]),
        ("FAIL", true, ["a:orig", "b:b", "x:x"]),
        ("ROLLBACK", true, ["a:orig"]),
    ])
    func conflictClausesBehaveAsDocumented(clause: String, fails: Bool, expected: [String]) throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t (name TEXT UNIQUE, note TEXT)")
        try database.execute("INSERT INTO t VALUES ('a', 'orig')")
        try database.execute("BEGIN")
        try database.execute("INSERT INTO t VALUES ('x', 'x')")
        var failure: SQLiteError?
        do {
            try database.execute("INSERT OR \(clause) INTO t VALUES ('b', 'b'), ('a', 'new'), ('c', 'c')")
        } catch let error as SQLiteError {
            failure = error
        }
        #expect((failure != nil) == fails)
        if fails {
            #expect(failure?.isConstraintViolation == true)
            #expect(failure?.message.contains("UNIQUE constraint failed: t.name") == true)
        }
        #expect(try database.isAutocommit == (clause == "ROLLBACK"))
        if try !database.isAutocommit { try database.execute("COMMIT") }
        let rows = try database.query("SELECT name || ':' || note FROM t ORDER BY name").map(\.values.first)
        #expect(rows == expected.map { Value.text($0) })
    }
}
