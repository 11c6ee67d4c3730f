import CellarKit
import TestSupport
import Testing

/// `executeReused` keeps the migrator's per-migration statements prepared: what it runs must be what
/// `execute` would run on the same connection, also after the schema changes under a kept statement,
/// with `execute`'s errors, and nothing kept may outlive the run or keep the connection from closing.
@Suite struct ReusedStatementTests {
    @Test func aKeptStatementFollowsTheSchemaAsItChanges() throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t (a INTEGER)")
        try database.executeReused("INSERT INTO main.t (a) VALUES (?)", [1])
        // A column added with a default: a statement compiled before would not know it.
        try database.execute("ALTER TABLE t ADD COLUMN b INTEGER DEFAULT 7")
        try database.executeReused("INSERT INTO main.t (a) VALUES (?)", [2])
        #expect(
            try database.query("SELECT a, b FROM t ORDER BY a").map(\.values) == [
                [.integer(1), .integer(7)], [.integer(2), .integer(7)],
            ])
        // The table dropped and made again with another shape: the kept statement fails as a fresh one
        // would, then works on the new table.
        try database.execute("DROP TABLE t")
        let reused = #expect(throws: SQLiteError.self) { try database.executeReused("INSERT INTO main.t (a) VALUES (?)", [3]) }
        let fresh = #expect(throws: SQLiteError.self) { try database.execute("INSERT INTO main.t (a) VALUES (?)", [3]) }
        #expect(reused?.message == fresh?.message)
        #expect(reused?.code == fresh?.code)
        try database.execute("CREATE TABLE t (a TEXT CHECK (a <> '4'))")
        try database.executeReused("INSERT INTO main.t (a) VALUES (?)", [5])
        #expect(try database.query("SELECT typeof(a), a FROM t").map(\.values) == [[.text("text"), .text("5")]])
        // The CHECK the new table added holds for the kept statement.
        #expect(throws: SQLiteError.self) { try database.executeReused("INSERT INTO main.t (a) VALUES (?)", ["4"]) }
    }

    @Test func errorsAreThoseOfExecute() throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t (a INTEGER PRIMARY KEY)")
        try database.execute("INSERT INTO t VALUES (1)")
        let cases: [(String, [any ValueConvertible])] = [
            ("INSERT INTO t VALUES (?)", [1]),  // a constraint, at step
            ("INSERT INTO t VALUES (?, ?)", [2]),  // a missing argument
            ("INSERT INTO t VALUES (?)", [2, 3]),  // an argument left over (found after the row went in)
            ("INSERT INTO nowhere VALUES (?)", [4]),  // at prepare
        ]
        for (sql, arguments) in cases {
            let fresh = #expect(throws: SQLiteError.self) { try database.execute(sql, arguments) }
            try database.execute("DELETE FROM t WHERE a <> 1")
            let reused = #expect(throws: SQLiteError.self) { try database.executeReused(sql, arguments) }
            try database.execute("DELETE FROM t WHERE a <> 1")
            #expect(reused?.message == fresh?.message, "\(sql)")
            #expect(reused?.code == fresh?.code, "\(sql)")
            #expect(reused?.offset == fresh?.offset, "\(sql)")
            #expect(reused?.sql == fresh?.sql, "\(sql)")
        }
        // A failed run left the kept statement reset: it runs again.
        try database.executeReused("INSERT INTO t VALUES (?)", [9])
        #expect(try database.scalar("SELECT max(a) FROM t") == .integer(9))
    }

    @Test func keptStatementsNeitherOutliveTheirReleaseNorBlockClose() throws {
        let database = try Database(path: ":memory:")
        try database.executeReused("CREATE TABLE IF NOT EXISTS t (a)", [])
        try database.executeReused("BEGIN IMMEDIATE", [])
        try database.executeReused("COMMIT", [])
        #expect(try database.liveStatementCount == 3)
        database.releaseReusedStatements()
        #expect(try database.liveStatementCount == 0)
        try database.executeReused("BEGIN IMMEDIATE", [])
        try database.executeReused("COMMIT", [])
        // close() would refuse with SQLITE_BUSY while a statement is alive.
        try database.close()
    }

    @Test func aMigrationRunKeepsNoStatementAfterIt() throws {
        let project = try MigrationProject([
            "0001_a.sql": "-- migrate:up transaction:false\nCREATE TABLE a (x);\nINSERT INTO a VALUES (1);\n",
            "0002_b.sql": "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE b (x);\nCOMMIT;\n",
            "0003_c.sql": "CREATE TABLE c (x);\n",
        ])
        let database = try project.open()
        try project.migrator(database).migrate()
        #expect(try project.versions(database) == [1, 2, 3])
        #expect(try database.liveStatementCount == 0)
    }
}
