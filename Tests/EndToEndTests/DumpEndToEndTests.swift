import CellarKit
import TestSupport
import Testing

/// A database holding every awkward value and object a dump must carry: integers at the limits, reals
/// whose bits matter (negative zero, subnormals, infinities, the ones 15 digits cannot hold), text with
/// quotes, line ends, NUL and bytes that are not UTF-8, empty and binary blobs, NULLs, AUTOINCREMENT with
/// a deleted top row, WITHOUT ROWID, quoted and keyword names, generated columns, an index, a view,
/// a trigger and `user_version`.
let awkwardDatabaseSQL = """
    PRAGMA user_version = 42;
    CREATE TABLE "odd ""name"" 1" (id INTEGER PRIMARY KEY AUTOINCREMENT, v, "order" TEXT);
    INSERT INTO "odd ""name"" 1" (v, "order") VALUES
      (9223372036854775807, 'it''s'), (-9223372036854775808, 'line
    two'), (0, char(13) || char(10) || 'crlf\\n\\r'), (-0.0, 'nul' || char(0) || 'inside'),
      (4.9e-324, CAST(X'ff00fe' AS TEXT)), (1.7976931348623157e308, '😀 é'), (9e999, ''), (-9e999, NULL),
      (0.30000000000000004, '-- not a comment; */'), (3.141592653589793, X''), (1e300, X'00ff10'),
      (123456789.12345678, 'tab	and ctrl ' || char(1)), (NULL, 'last');
    DELETE FROM "odd ""name"" 1" WHERE v IS NULL;
    CREATE TABLE kv (k TEXT PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID;
    INSERT INTO kv VALUES ('b', X'0001'), ('a', zeroblob(3));
    CREATE TABLE g (a INTEGER, b AS (a * 2), c AS (a + 1) STORED);
    INSERT INTO g (a) VALUES (1), (2);
    CREATE INDEX g_a ON g (a) WHERE a > 0;
    CREATE VIEW doubled AS SELECT a, b FROM g;
    CREATE TRIGGER g_log AFTER INSERT ON g BEGIN INSERT INTO kv VALUES ('t' || new.a, X'01'); END;
    """

@Suite struct DumpEndToEndTests {
    static let repository = String(
        #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))

    /// Dumps `source`, rebuilds it through sqlite3 and through `cellar run --autocommit`, and checks
    /// both copies are logically identical to it.
    static func expectRoundTrip(of source: String, in folder: TemporaryDirectory) throws {
        let dump = try Cellar.run(["dump", "-d", source], in: folder.path)
        #expect(dump.status == 0, "\(dump)")
        #expect(dump.output.hasPrefix("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n"))
        #expect(dump.output.hasSuffix("COMMIT;\n"))
        try folder.write("dump.sql", bytes: dump.outputBytes)
        let expected = try DatabaseFingerprint.lines(of: folder.file(source))
        let throughSQLite = try Shell.run("/usr/bin/sqlite3", [folder.file("by-sqlite3.db")], input: dump.outputBytes)
        #expect(throughSQLite.status == 0 && throughSQLite.error.isEmpty, "\(throughSQLite)")
        #expect(try DatabaseFingerprint.lines(of: folder.file("by-sqlite3.db")) == expected)
        let throughCellar = try Cellar.run(["run", "--autocommit", "dump.sql", "-d", "by-cellar.db"], in: folder.path)
        #expect(throughCellar.status == 0, "\(throughCellar)")
        #expect(try DatabaseFingerprint.lines(of: folder.file("by-cellar.db")) == expected)
    }

    @Test func awkwardValuesSurviveBothRoundTrips() throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_base.sql", "CREATE TABLE base (x);\n")
        #expect(try Cellar.run(["migrate", "-d", "awkward.db"], in: folder.path).status == 0)
        try Database(path: folder.file("awkward.db")).execute(awkwardDatabaseSQL)
        try Self.expectRoundTrip(of: "awkward.db", in: folder)
        let copy = try Database(path: folder.file("by-cellar.db"))
        #expect(try copy.scalar("PRAGMA user_version") == .integer(42))
        #expect(try copy.scalar("SELECT seq FROM sqlite_sequence") == .integer(13))
        #expect(try copy.scalar("SELECT max(version) FROM cellar_migrations") == .integer(1))
    }

    @Test func theWineryExampleSurvivesBothRoundTrips() throws {
        let folder = TemporaryDirectory()
        try Shell.run("/bin/cp", ["-R", "\(Self.repository)/migrations", "\(Self.repository)/seeds", folder.path])
        #expect(try Cellar.run(["setup", "-d", "winery.db"], in: folder.path).status == 0)
        try Self.expectRoundTrip(of: "winery.db", in: folder)
        let status = try Cellar.run(["status", "--exit-code", "-d", "by-cellar.db"], in: folder.path)
        #expect(status.status == 0, "a restored database knows its version and seeds: \(status)")
    }

    @Test func dumpHasSQLite3sShapeAndOrder() throws {
        let folder = TemporaryDirectory()
        try Database(path: folder.file("s.db")).execute(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
            INSERT INTO t (name) VALUES ('a'), ('b''c');
            CREATE INDEX t_name ON t (name);
            CREATE VIEW v AS SELECT name FROM t;
            """)
        let dump = try Cellar.run(["dump", "-d", "s.db"], in: folder.path)
        #expect(
            dump.output == """
                PRAGMA foreign_keys=OFF;
                BEGIN TRANSACTION;
                CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
                INSERT INTO t VALUES(1,'a');
                INSERT INTO t VALUES(2,'b''c');
                DELETE FROM sqlite_sequence;
                INSERT INTO sqlite_sequence VALUES('t',2);
                CREATE INDEX t_name ON t (name);
                CREATE VIEW v AS SELECT name FROM t;
                COMMIT;

                """)
        let reference = try Shell.run("/usr/bin/sqlite3", [folder.file("s.db"), ".dump"])
        #expect(dump.output == reference.output, "same text as sqlite3 when no real or odd value is involved")
    }

    @Test func schemaOnlyDataOnlyAndTablesBySelection() throws {
        let folder = TemporaryDirectory()
        try Database(path: folder.file("s.db")).execute(
            """
            PRAGMA user_version = 3;
            CREATE TABLE wine (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
            CREATE TABLE winery (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE other (x);
            INSERT INTO wine (name) VALUES ('w'); INSERT INTO winery VALUES (1, 'y'); INSERT INTO other VALUES (1);
            CREATE INDEX wine_name ON wine (name);
            CREATE INDEX other_x ON other (x);
            """)
        let schema = try Cellar.run(["dump", "--schema-only", "-d", "s.db"], in: folder.path)
        #expect(!schema.output.contains("INSERT"))
        #expect(schema.output.contains("CREATE INDEX other_x ON other (x);\nPRAGMA user_version=3;\nCOMMIT;\n"))
        let data = try Cellar.run(["dump", "--data-only", "-d", "s.db", "other"], in: folder.path)
        #expect(data.output == "INSERT INTO other VALUES(1);\n")
        let some = try Cellar.run(["dump", "-d", "s.db", "wine"], in: folder.path)
        #expect(
            some.output == """
                PRAGMA foreign_keys=OFF;
                BEGIN TRANSACTION;
                CREATE TABLE wine (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
                INSERT INTO wine VALUES(1,'w');
                DELETE FROM sqlite_sequence WHERE name='wine';
                INSERT INTO sqlite_sequence VALUES('wine',1);
                CREATE INDEX wine_name ON wine (name);
                COMMIT;

                """)
        let pattern = try Cellar.run(["dump", "--data-only", "-d", "s.db", "win%"], in: folder.path)
        #expect(pattern.output.contains("INSERT INTO wine VALUES") && pattern.output.contains("INSERT INTO winery VALUES"))
        #expect(!pattern.output.contains("other"))
    }

    @Test func badRequestsAreErrors() throws {
        let folder = TemporaryDirectory()
        try Database(path: folder.file("s.db")).execute("CREATE TABLE t (x)")
        let missing = try Cellar.run(["dump", "-d", "s.db", "nope"], in: folder.path)
        #expect(missing.status == 1)
        #expect(missing.error == "cellar: error: no table or view matches 'nope'\n")
        let both = try Cellar.run(["dump", "--schema-only", "--data-only", "-d", "s.db"], in: folder.path)
        #expect(both.status == 2)
        let noDatabase = try Cellar.run(["dump", "-d", "absent.db"], in: folder.path)
        #expect(noDatabase.status == 1)
        #expect(noDatabase.error.contains("no database at 'absent.db'"))
    }
}
