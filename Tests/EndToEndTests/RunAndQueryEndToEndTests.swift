import TestSupport
import Testing

/// `cellar run` and `cellar query` as users run them: the real binary, files, pipes and exit codes.
@Suite struct RunAndQueryEndToEndTests {
    static func count(_ table: String, in database: String) throws -> String {
        try Shell.run("/usr/bin/sqlite3", [database, "SELECT count(*) FROM \(table)"]).output
    }

    @Test func runAppliesAScriptInOneTransaction() throws {
        let folder = TemporaryDirectory()
        try folder.write("seed.sql", "CREATE TABLE w(n);\nINSERT INTO w VALUES (1);\nINSERT INTO w VALUES (2);\n")
        let result = try Cellar.run(["run", "seed.sql", "-d", "t.db"], in: folder.path)
        #expect(result.status == 0, "\(result)")
        #expect(try Self.count("w", in: folder.file("t.db")) == "2\n")
    }

    @Test func aFailingStatementRollsBackTheWholeFile() throws {
        let folder = TemporaryDirectory()
        try Shell.run("/usr/bin/sqlite3", [folder.file("t.db"), "CREATE TABLE w(n UNIQUE); INSERT INTO w VALUES (1);"])
        try folder.write("bad.sql", "INSERT INTO w VALUES (2);\nINSERT INTO w VALUES (3);\n  INSERT INTO w VALUES (1);\n")
        let result = try Cellar.run(["run", "bad.sql", "-d", "t.db"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(
            result.error.hasPrefix(
                "bad.sql:3:3: error: UNIQUE constraint failed: w.n\n    3 |   INSERT INTO w VALUES (1);\n      |   ^\n"))
        #expect(result.error.contains("cellar: bad.sql rolled back"))
        #expect(try Self.count("w", in: folder.file("t.db")) == "1\n")
    }

    @Test func aDumpNeedsAutocommit() throws {
        let folder = TemporaryDirectory()
        try Shell.run(
            "/usr/bin/sqlite3", [folder.file("src.db"), "CREATE TABLE w(n, t); INSERT INTO w VALUES (1, 'a;b'), (2, x'00ff');"])
        let dump = try Shell.run("/usr/bin/sqlite3", [folder.file("src.db"), ".dump"])
        try folder.write("dump.sql", dump.output)
        let refused = try Cellar.run(["run", "dump.sql", "-d", "copy.db"], in: folder.path)
        #expect(refused.status == 1)
        #expect(refused.error.contains("dump.sql:2:1: error: BEGIN is not allowed here"))
        #expect(refused.error.contains("use --autocommit"))
        let applied = try Cellar.run(["run", "dump.sql", "--autocommit", "-d", "copy.db"], in: folder.path)
        #expect(applied.status == 0, "\(applied)")
        let copied = try Cellar.run(["query", "SELECT n, t FROM w", "--mode", "quote", "-d", "copy.db"], in: folder.path)
        #expect(copied.output == "1,'a;b'\n2,X'00ff'\n")
    }

    @Test func runReadsStandardInput() throws {
        let folder = TemporaryDirectory()
        let result = try Cellar.run(
            ["run", "-", "-d", "t.db"], in: folder.path, input: "CREATE TABLE w(n); INSERT INTO w VALUES (5); SELECT n FROM w;")
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "5\n")
    }

    @Test(arguments: [
        ([UInt8]([0xFF, 0xFE, 0x53, 0x00]), "x.sql:1:1: error: the file is UTF-16"),
        (Array("SELECT 1;\nSELECT 'é".utf8) + [0xC3, 0x28] + Array("';".utf8), "x.sql:2:10: error: invalid UTF-8 (byte 0xc3)"),
    ])
    func encodingErrorsNameThePlace(bytes: [UInt8], message: String) throws {
        let folder = TemporaryDirectory()
        try folder.write("x.sql", bytes: bytes)
        let result = try Cellar.run(["run", "x.sql", "-d", "t.db"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.error.hasPrefix(message), "\(result)")
    }

    @Test func aMissingScriptIsNotAUsageError() throws {
        let folder = TemporaryDirectory()
        let result = try Cellar.run(["run", "nope.sql", "-d", "t.db"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.error == "cellar: error: cannot open script 'nope.sql': No such file or directory\n")
    }

    @Test func queryWritesCSVWithCRLFAndBlobsAsHex() throws {
        let folder = TemporaryDirectory()
        try Shell.run("/usr/bin/sqlite3", [folder.file("t.db"), "CREATE TABLE b(x, y); INSERT INTO b VALUES ('a,b', x'cafe');"])
        let result = try Cellar.run(["query", "SELECT * FROM b", "--mode", "csv", "--header", "-d", "t.db"], in: folder.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "x,y\r\n\"a,b\",cafe\r\n")
    }

    @Test func safeRefusesFileFunctionsAndVacuumInto() throws {
        let folder = TemporaryDirectory()
        try folder.write("steal.sql", "CREATE TABLE s(b);\nINSERT INTO s VALUES (readfile('steal.sql'));\n")
        #expect(try Cellar.run(["create", "-d", "t.db"], in: folder.path).status == 0)
        let refused = try Cellar.run(["run", "steal.sql", "--safe", "-d", "t.db"], in: folder.path)
        #expect(refused.status == 1)
        #expect(refused.error.hasPrefix("steal.sql:2:23: error: the function readfile is not allowed with --safe"), "\(refused)")
        let copy = try Cellar.run(["query", "VACUUM INTO 'copy.db'", "--safe", "-d", "t.db"], in: folder.path)
        #expect(copy.status == 1)
        #expect(copy.error.contains("ATTACH or VACUUM INTO is not allowed with --safe"))
        #expect(!FileBytes.exists(folder.file("copy.db")))
        let allowed = try Cellar.run(["run", "steal.sql", "-d", "t.db"], in: folder.path)
        #expect(allowed.status == 0, "\(allowed)")
        #expect(try Shell.run("/usr/bin/sqlite3", [folder.file("t.db"), "SELECT length(b) > 0 FROM s"]).output == "1\n")
    }

    @Test func queryHelpSaysHowGridsAreSized() throws {
        let result = try Cellar.run(["query", "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("first 1000 rows"))
    }
}
