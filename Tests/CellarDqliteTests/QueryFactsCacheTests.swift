import CellarKit
import Testing

@testable import CellarDqlite

/// A remote connection keeps what SQLite said of a read-only query or of transaction control by text,
/// across schema changes: every fact it reads of those follows from the text alone. These tests prepare
/// each kept statement on two different schemas and compare what the connection reads.
@Suite struct QueryFactsCacheTests {
    private static func database(_ schema: String) throws -> Database {
        let database = try Database(path: ":memory:")
        try database.execute(schema)
        return database
    }

    private static let before = """
        CREATE TABLE t (a, b);
        CREATE VIEW v AS SELECT a FROM t;
        """
    /// The same names, other shapes: more columns, a view over other columns, a trigger.
    private static let after = """
        CREATE TABLE t (a, b, c, d);
        CREATE TABLE u (x);
        CREATE VIEW v AS SELECT a, b, c FROM t JOIN u;
        CREATE TRIGGER tt AFTER INSERT ON t BEGIN INSERT INTO u VALUES (new.a); END;
        """

    @Test(arguments: [
        ("SELECT * FROM t WHERE a = ?", true),
        ("SELECT EXISTS (SELECT 1 FROM t WHERE a = :a), (SELECT count(*) FROM v)", true),
        ("WITH w AS (SELECT a FROM t) SELECT * FROM w, v", true),
        ("VALUES (1), (?2)", true),
        ("BEGIN IMMEDIATE", true),
        ("COMMIT", true),
        ("ROLLBACK", true),
        ("SAVEPOINT s", true),
        ("RELEASE s", true),
        ("INSERT INTO t (a) VALUES (1)", false),
        ("INSERT INTO t (a) VALUES (1) RETURNING a", false),
        ("CREATE TABLE w (x)", false),
        ("PRAGMA table_info(t)", false),
        ("PRAGMA foreign_keys", false),
        ("EXPLAIN SELECT * FROM t", false),
        ("DELETE FROM t", false),
    ])
    func onlyWhatTheTextDecidesIsKept(sql: String, isKept: Bool) throws {
        let facts = try Self.database(Self.before).facts(of: sql)
        #expect(QueryFactsCache.isTextDetermined(facts) == isKept, "\(sql)")
        var cache = QueryFactsCache()
        cache.remember(facts, for: sql)
        #expect((cache[sql] != nil) == isKept, "\(sql)")
    }

    /// What the connection reads of a kept statement is the same on another schema.
    @Test(arguments: [
        "SELECT * FROM t WHERE a = ?", "SELECT EXISTS (SELECT 1 FROM t WHERE a = :a), (SELECT count(*) FROM v)",
        "WITH w AS (SELECT a FROM t) SELECT * FROM w, v", "VALUES (1), (?2)", "BEGIN IMMEDIATE", "COMMIT", "SAVEPOINT s",
        "RELEASE s", "ROLLBACK TO s",
    ])
    func aKeptStatementReadsTheSameOnAnotherSchema(sql: String) throws {
        let first = try Self.database(Self.before).facts(of: sql)
        let second = try Self.database(Self.after).facts(of: sql)
        #expect(QueryFactsCache.isTextDetermined(first))
        #expect(RemoteStatement.runsAsQuery(first) == RemoteStatement.runsAsQuery(second))
        #expect(first.returnsRows == second.returnsRows)
        #expect(first.isReadOnly == second.isReadOnly)
        #expect(first.isPragma == second.isPragma)
        #expect(first.isExplain == second.isExplain)
        #expect(first.parameterNames == second.parameterNames)
        #expect(first.transactionOperation == second.transactionOperation)
        #expect(first.savepoint?.operation == second.savepoint?.operation)
        #expect(first.savepoint?.name == second.savepoint?.name)
        #expect(first.changesSchema == second.changesSchema)
        #expect(first.countsChanges == second.countsChanges)
        #expect(first.writesReturningRows == second.writesReturningRows)
    }

    /// An insert is not kept: on the second schema a trigger makes it write elsewhere too.
    @Test func aWriteIsPreparedAgainOnEachSchema() throws {
        let sql = "INSERT INTO t (a) VALUES (1)"
        let first = try Self.database(Self.before).facts(of: sql)
        let second = try Self.database(Self.after).facts(of: sql)
        #expect(first.actions.count != second.actions.count)
        var cache = QueryFactsCache()
        cache.remember(first, for: sql)
        #expect(cache[sql] == nil)
    }

    @Test func theCacheIsBounded() throws {
        let database = try Self.database(Self.before)
        var cache = QueryFactsCache()
        for index in 0...QueryFactsCache.limit {
            cache.remember(try database.facts(of: "SELECT \(index)"), for: "SELECT \(index)")
        }
        #expect(cache["SELECT \(QueryFactsCache.limit)"] != nil)
        #expect(cache["SELECT 0"] == nil)
    }
}
