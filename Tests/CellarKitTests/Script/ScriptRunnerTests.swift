import CellarKit
import TestSupport
import Testing

/// `cellar run`'s engine: statement boundaries, locations, transactions, encodings and `--safe`.
@Suite struct ScriptRunnerTests {
    static let chunkSizes = [16, 1 << 20]

    /// Runs `script` on `db`, returning the diagnostic it threw, if any.
    static func run(
        _ script: [UInt8], on db: Database, options: ScriptRunner.Options = ScriptRunner.Options()
    ) throws -> Diagnostic? {
        do {
            try ScriptRunner(database: db, options: options).run(BufferSource(script), path: "s.sql")
            return nil
        } catch let diagnostic as Diagnostic {
            return diagnostic
        }
    }

    static func run(_ script: String, on db: Database, options: ScriptRunner.Options = ScriptRunner.Options()) throws
        -> Diagnostic?
    {
        try run(Array(script.utf8), on: db, options: options)
    }

    static func tables(_ db: Database) throws -> [String] {
        try db.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").compactMap {
            FixtureValue.text($0.values[0])
        }
    }

    // MARK: - Locations

    static let locatedErrors: [(String, Int, Int, String)] = [
        ("-- a comment; with a semicolon\nSELECT 1;\nSELEC 2;\n", 3, 1, "near \"SELEC\""),
        ("SELECT 'a;b', \"x;y\" FROM (SELECT 1 AS \"x;y\");\n  INSERT INTO nope VALUES(1);", 2, 3, "no such table: nope"),
        ("/* c; */ SELECT 1; /* x; */ SELECT * FROM;", 1, 42, "syntax error"),
        (
            "CREATE TABLE t(a);\nCREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  SELECT 1;\n  SELEC 2;\nEND;\n", 4, 3,
            "near \"SELEC\""
        ),
        (
            "CREATE TABLE t(a);\nCREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;\nINSERT INTO t VALUES(1); SELECT * FROM nope;",
            3, 26, "no such table"
        ),
        ("SELECT 'é日本語', 1;  SELEC 1;", 1, 20, "near \"SELEC\""),
        ("CREATE TABLE u(a UNIQUE);\nINSERT INTO u VALUES(1);\n   INSERT INTO u VALUES(1);", 3, 4, "UNIQUE constraint failed"),
        ("SELECT 1;\nSELECT 'unterminated", 2, 8, "unrecognized token"),
    ]

    @Test(arguments: locatedErrors, chunkSizes)
    func errorsNameLineAndColumn(case: (String, Int, Int, String), chunkSize: Int) throws {
        let (script, line, column, message) = `case`
        let db = try Database(path: ":memory:")
        let diagnostic = try #require(try Self.run(script, on: db, options: ScriptRunner.Options(chunkSize: chunkSize)))
        #expect(diagnostic.location == SourceLocation(line: line, column: column), "\(diagnostic)")
        #expect(diagnostic.message.contains(message), "\(diagnostic.message)")
        #expect(diagnostic.sourceLine == SourceLocation.lineText(line, in: script))
        #expect(diagnostic.notes.first == "s.sql rolled back: none of its statements were applied")
        #expect(try Self.tables(db).isEmpty)
    }

    // MARK: - Transactions

    @Test(arguments: chunkSizes)
    func aFailingThirdStatementLeavesNothing(chunkSize: Int) throws {
        let db = try Database(path: ":memory:")
        let script = "CREATE TABLE a(x);\nINSERT INTO a VALUES(1);\nINSERT INTO a VALUES(1, 2);\n"
        let diagnostic = try #require(try Self.run(script, on: db, options: ScriptRunner.Options(chunkSize: chunkSize)))
        #expect(diagnostic.location == SourceLocation(line: 3, column: 1))
        #expect(try Self.tables(db).isEmpty)
        #expect(try db.isAutocommit)
    }

    @Test func autocommitKeepsTheStatementsBeforeTheError() throws {
        let db = try Database(path: ":memory:")
        let script = "CREATE TABLE a(x);\nINSERT INTO a VALUES(1);\nINSERT INTO a VALUES(1, 2);\nINSERT INTO a VALUES(3);\n"
        let diagnostic = try #require(try Self.run(script, on: db, options: ScriptRunner.Options(isTransactional: false)))
        #expect(diagnostic.location == SourceLocation(line: 3, column: 1))
        #expect(diagnostic.notes.first?.contains("the 2 statements before this point stay applied") == true)
        #expect(try db.query("SELECT x FROM a").map(\.values) == [[.integer(1)]])
    }

    static let dump = "PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\nCREATE TABLE d(x);\nINSERT INTO d VALUES(1);\nCOMMIT;\n"

    @Test func aDumpIsRefusedWithoutAutocommit() throws {
        let db = try Database(path: ":memory:")
        let diagnostic = try #require(try Self.run(Self.dump, on: db))
        #expect(diagnostic.location == SourceLocation(line: 2, column: 1))
        #expect(diagnostic.message.hasPrefix("BEGIN is not allowed here"))
        #expect(diagnostic.reason == .transactionControlRefused("BEGIN"))
        #expect(!diagnostic.notes.contains { $0.contains("--") }, "the library names no CLI flag")
        #expect(try Self.tables(db).isEmpty)
        #expect(try db.isAutocommit)
    }

    @Test func aDumpRunsWithAutocommit() throws {
        let db = try Database(path: ":memory:")
        #expect(try Self.run(Self.dump, on: db, options: ScriptRunner.Options(isTransactional: false)) == nil)
        #expect(try db.query("SELECT x FROM d").map(\.values) == [[.integer(1)]])
    }

    @Test func aScriptEndingInsideItsOwnTransactionIsRolledBack() throws {
        let db = try Database(path: ":memory:")
        let script = "CREATE TABLE a(x);\nBEGIN;\nINSERT INTO a VALUES(1);\n"
        let diagnostic = try #require(try Self.run(script, on: db, options: ScriptRunner.Options(isTransactional: false)))
        #expect(diagnostic.message.contains("ended inside a transaction"))
        #expect(try db.query("SELECT count(*) FROM a").map(\.values) == [[.integer(0)]])
        #expect(try db.isAutocommit)
    }

    @Test func vacuumInsideTheTransactionSuggestsAutocommit() throws {
        let db = try Database(path: ":memory:")
        let diagnostic = try #require(try Self.run("CREATE TABLE a(x);\nVACUUM;\n", on: db))
        #expect(diagnostic.location == SourceLocation(line: 2, column: 1))
        #expect(diagnostic.message == "cannot VACUUM from within a transaction")
        #expect(diagnostic.reason == .needsNoTransaction)
        #expect(!diagnostic.notes.contains { $0.contains("--") }, "the library names no CLI flag")
        #expect(try Self.tables(db).isEmpty)
    }

    @Test func aLockedDatabaseIsAClearErrorAndNothingRuns() throws {
        let folder = TemporaryDirectory()
        let holder = try Database(path: folder.file("l.db"))
        try holder.execute("CREATE TABLE a(x); BEGIN IMMEDIATE; INSERT INTO a VALUES (1);")
        let db = try Database(path: folder.file("l.db"), options: Database.Options(busyTimeout: 0))
        let diagnostic = try #require(try Self.run("INSERT INTO a VALUES (2);", on: db))
        #expect(diagnostic.location == nil)
        #expect(diagnostic.message == "cannot begin the script's transaction: the database is locked by another connection")
        try holder.execute("ROLLBACK")
        #expect(try db.scalar("SELECT count(*) FROM a") == .integer(0))
    }

    @Test func savepointsStayAllowedInsideTheTransaction() throws {
        let db = try Database(path: ":memory:")
        let script =
            "CREATE TABLE a(x);\nSAVEPOINT s;\nINSERT INTO a VALUES(1);\nROLLBACK TO s;\nRELEASE s;\nINSERT INTO a VALUES(2);"
        #expect(try Self.run(script, on: db) == nil)
        #expect(try db.query("SELECT x FROM a").map(\.values) == [[.integer(2)]])
    }

    /// The runner's policy only counts most of what SQLite asks about (an `INSERT`'s table), and the
    /// authorizer then builds no request for it; an app's authorizer still sees every detail of those.
    @Test func theAppsAuthorizerSeesTheTableOfEveryInsertWhileAScriptRuns() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE kept(x); CREATE TABLE sealed(x);")
        var inserts: [String] = []
        try db.setAuthorizer { request in
            guard request.code == 18 else { return .allow }  // SQLITE_INSERT
            inserts.append("\(request.schema ?? "?").\(request.first ?? "?")")
            return request.first == "sealed" ? .deny : .allow
        }
        let diagnostic = try #require(
            try Self.run("INSERT INTO kept VALUES(1);\nINSERT INTO sealed VALUES(2);\n", on: db))
        #expect(diagnostic.location == SourceLocation(line: 2, column: 1))
        #expect(diagnostic.message == "not authorized")
        #expect(inserts == ["main.kept", "main.sealed"])
        #expect(try db.scalar("SELECT count(*) FROM kept") == .integer(0), "the script was rolled back")
    }

    // MARK: - Boundaries and streaming

    @Test(arguments: chunkSizes)
    func triggersStringsAndCommentsKeepTheirSemicolons(chunkSize: Int) throws {
        let db = try Database(path: ":memory:")
        let script = """
            CREATE TABLE t(a TEXT); CREATE TABLE log(m TEXT);
            -- INSERT INTO t VALUES('commented; out');
            /* INSERT INTO t VALUES('also; out'); */
            CREATE TRIGGER tr AFTER INSERT ON t BEGIN
              INSERT INTO log VALUES('one;');
              INSERT INTO log VALUES('two');
            END;
            INSERT INTO t VALUES('a;b'); INSERT INTO "t" VALUES(';');
            INSERT INTO t VALUES('日本語;é')
            """
        #expect(try Self.run(script, on: db, options: ScriptRunner.Options(chunkSize: chunkSize)) == nil)
        #expect(try db.query("SELECT a FROM t").map(\.values) == [[.text("a;b")], [.text(";")], [.text("日本語;é")]])
        #expect(try db.scalar("SELECT count(*) FROM log") == .integer(6))
    }

    @Test func aLongScriptStreamsInSmallChunks() throws {
        let db = try Database(path: ":memory:")
        var script = "CREATE TABLE big(n INTEGER, t TEXT);\n"
        for index in 0..<20_000 { script += "INSERT INTO big VALUES(\(index), 'row; \(index) é');\n" }
        script += "INSERT INTO big VALUES(-1, 'last')"
        let summary = try ScriptRunner(database: db, options: ScriptRunner.Options(chunkSize: 4096)).run(
            BufferSource(script), path: "big.sql")
        #expect(summary.statementCount == 20_002)
        #expect(summary.changes == 20_001)
        #expect(try db.scalar("SELECT count(*) FROM big") == .integer(20_001))
    }

    @Test func rowsOfSelectStatementsGoToTheHandler() throws {
        let db = try Database(path: ":memory:")
        var seen: [[Value]] = []
        try ScriptRunner(database: db).run(
            BufferSource("CREATE TABLE a(x); INSERT INTO a VALUES (7); SELECT x FROM a;"), path: "-"
        ) {
            while try $0.step() { seen.append($0.values) }
        }
        #expect(seen == [[.integer(7)]])
    }

    @Test func anEmptyScriptIsAnError() throws {
        let db = try Database(path: ":memory:")
        let diagnostic = try #require(try Self.run("-- only a comment\n\n", on: db))
        #expect(diagnostic.message.contains("no SQL statement"))
    }

    // MARK: - Encodings

    @Test(arguments: chunkSizes)
    func aByteOrderMarkIsSkipped(chunkSize: Int) throws {
        let db = try Database(path: ":memory:")
        let diagnostic = try Self.run(
            [0xEF, 0xBB, 0xBF] + Array("CREATE TABLE b(x);\nSELEC;".utf8), on: db,
            options: ScriptRunner.Options(chunkSize: chunkSize))
        #expect(diagnostic?.location == SourceLocation(line: 2, column: 1))
        #expect(try Self.tables(db).isEmpty)
        #expect(try Self.run([0xEF, 0xBB, 0xBF] + Array("CREATE TABLE b(x);".utf8), on: db) == nil)
        #expect(try Self.tables(db) == ["b"])
    }

    @Test(arguments: chunkSizes)
    func invalidUTF8NamesTheFirstBadByte(chunkSize: Int) throws {
        let db = try Database(path: ":memory:")
        let script = Array("CREATE TABLE a(x);\nSELECT 'é".utf8) + [0xFF] + Array("';\n".utf8)
        let diagnostic = try #require(try Self.run(script, on: db, options: ScriptRunner.Options(chunkSize: chunkSize)))
        #expect(diagnostic.location == SourceLocation(line: 2, column: 10))
        #expect(diagnostic.message == "invalid UTF-8 (byte 0xff)")
        #expect(try Self.tables(db).isEmpty)
    }

    @Test func aTruncatedSequenceAtTheEndIsInvalid() throws {
        let db = try Database(path: ":memory:")
        let diagnostic = try #require(try Self.run(Array("SELECT 1; -- ".utf8) + [0xE6, 0x97], on: db))
        #expect(diagnostic.location == SourceLocation(line: 1, column: 14))
    }

    @Test(arguments: [
        ([UInt8]([0xFF, 0xFE]) + Array("S\0E\0".utf8), "UTF-16"), ([0xFE, 0xFF, 0, 0x53], "UTF-16"),
        (Array("S\0E\0L\0".utf8), "NUL byte"),
    ])
    func utf16IsRefused(script: [UInt8], message: String) throws {
        let db = try Database(path: ":memory:")
        let diagnostic = try #require(try Self.run(script, on: db))
        #expect(diagnostic.message.contains(message))
        #expect(diagnostic.location != nil)
    }

    // MARK: - Safe mode

    @Test func safeModeRefusesFileFunctionsAttachAndVacuumInto() throws {
        let folder = TemporaryDirectory()
        let db = try Database(path: folder.file("s.db"))
        try db.registerFileFunctions()
        let safe = ScriptRunner.Options(isTransactional: false, isSafe: true)
        let cases = [
            ("SELECT readfile('x');", "the function readfile"),
            ("SELECT writefile('\(folder.file("w"))', 'x');", "the function writefile"),
            ("ATTACH '\(folder.file("a.db"))' AS a;", "ATTACH or VACUUM INTO"),
            ("VACUUM INTO '\(folder.file("v.db"))';", "ATTACH or VACUUM INTO"),
        ]
        for (script, what) in cases {
            let diagnostic = try #require(try Self.run(script, on: db, options: safe))
            #expect(diagnostic.message == "\(what) is not allowed in safe mode")
            #expect(diagnostic.reason == .refusedBySafeMode(what))
        }
        #expect(!FileBytes.exists(folder.file("w")))
        #expect(!FileBytes.exists(folder.file("a.db")))
        #expect(!FileBytes.exists(folder.file("v.db")))
        #expect(try Self.run("CREATE TABLE k(x); VACUUM;", on: db, options: safe) == nil)
        #expect(
            try Self.run("VACUUM INTO '\(folder.file("v.db"))';", on: db, options: ScriptRunner.Options(isTransactional: false))
                == nil)
        #expect(FileBytes.exists(folder.file("v.db")))
    }
}
