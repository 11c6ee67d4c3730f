import CellarKit
import TestSupport
import Testing

@testable import CellarDqlite

/// What a remote connection decides about a statement before sending it comes from SQLite preparing it
/// on a local copy of the schema, not from reading words: comments, quoted names and string contents
/// cannot mislead it. (Reading words, each statement marked "before" was misjudged.)
@Suite struct RemoteStatementFactsTests {
    private static func schema() throws -> Database {
        let database = try Database(path: ":memory:")
        try database.execute(
            """
            CREATE TABLE t (a, "returning", returning_id);
            CREATE TABLE "a=b" (x);
            CREATE INDEX i ON t (a);
            """)
        return database
    }

    /// (statement, runs as a query, refused as a write returning rows, counts changes, read-only)
    @Test(arguments: [
        // Before: refused as a write with RETURNING.
        ("INSERT INTO t VALUES (1, 2, 3) -- no RETURNING here", false, false, true, false),
        ("INSERT INTO t VALUES (1, 2, 3) /* returning */", false, false, true, false),
        ("UPDATE t SET a = 1 WHERE [returning] = 2", false, false, true, false),
        // Before: not refused; its row was printed and the write never stored.
        ("WITH x AS (SELECT 1, 2, 3) -- select the rows\nINSERT INTO t SELECT * FROM x RETURNING *", true, true, true, false),
        // Before: sent as a plain execute (its `=`), so its rows were lost.
        ("PRAGMA table_info('a=b')", true, false, false, true),
        // Before: counted as a write.
        ("SELECT returning_id FROM t", true, false, false, true),
        ("INSERT INTO t (a) VALUES (1) RETURNING a", true, true, true, false),
        ("DELETE FROM t RETURNING *", true, true, true, false),
        ("PRAGMA foreign_keys = ON", false, false, false, true),
        ("PRAGMA user_version = 7", false, false, false, false),
        ("PRAGMA journal_mode = wal", false, false, false, false),
        ("EXPLAIN INSERT INTO t (a) VALUES (1)", true, false, false, false),
        ("VALUES (1), (2)", true, false, false, true),
        ("CREATE TABLE u AS SELECT * FROM t", false, false, false, false),
        ("REPLACE INTO t (a) VALUES (1)", false, false, true, false),
        ("BEGIN", false, false, false, true),
    ])
    func statementsAreJudgedBySQLite(sql: String, isQuery: Bool, isRefused: Bool, countsChanges: Bool, isReadOnly: Bool)
        throws
    {
        let facts = try Self.schema().facts(of: sql)
        #expect(RemoteStatement.runsAsQuery(facts) == isQuery)
        #expect(facts.writesReturningRows == isRefused)
        #expect(facts.countsChanges == countsChanges)
        #expect(facts.isReadOnly == isReadOnly)
    }

    @Test(arguments: [
        ("CREATE TABLE v(x)", true), ("  -- note\ndrop index i", true), ("Alter TABLE t ADD y", true),
        ("CREATE VIEW w AS SELECT 1", true), ("INSERT INTO t (a) VALUES (1)", false),
        ("WITH c AS (SELECT 1) DELETE FROM t", false), ("SELECT 'CREATE TABLE'", false),
    ])
    func schemaStatementsAreTheOnesThatCreateDropOrAlter(sql: String, isSchema: Bool) throws {
        #expect(try Self.schema().facts(of: sql).changesSchema == isSchema)
    }

    @Test(
        arguments: [
            ("BEGIN", "BEGIN"), ("begin immediate transaction;", "BEGIN"), ("END", "COMMIT"),
            ("COMMIT TRANSACTION", "COMMIT"), ("ROLLBACK", "ROLLBACK"), ("/* why */ rollback;", "ROLLBACK"),
            ("ROLLBACK TO sp1", nil), ("ROLLBACK TRANSACTION TO SAVEPOINT x", nil), ("SAVEPOINT a", nil),
            ("RELEASE a", nil), ("SELECT 1", nil), ("-- BEGIN\nSELECT 1", nil),
        ] as [(String, String?)])
    func transactionControlIsNamedAsTheAuthorizerNamesIt(sql: String, operation: String?) throws {
        #expect(try Self.schema().facts(of: sql).transactionOperation == operation)
    }

    @Test func parameterNamesAreSQLites() throws {
        let facts = try Self.schema().facts(of: "SELECT :a, ?, @b, ?5, $c, :a, ':d' -- :e")
        #expect(facts.parameterNames == [":a", nil, "@b", nil, "?5", "$c"])
    }

    /// A statement the local copy cannot prepare is read from its text: its first word and its
    /// parameters, numbered as SQLite numbers them.
    @Test func aStatementTheCopyCannotPrepareIsReadFromItsText() {
        let read = RemoteConnection.readFacts(of: "/* x */ SELECT f(:a, ?, ?4, :a, '?') -- ?9")
        #expect(RemoteStatement.runsAsQuery(read))
        #expect(read.parameterNames == [":a", nil, nil, "?4"])
        #expect(!RemoteStatement.runsAsQuery(RemoteConnection.readFacts(of: "INSERT INTO t VALUES (f(?0))")))
    }
}
