import CellarCLI
import CellarKit
import TestSupport
import Testing

/// `run` and `query` in-process, against buffers.
@Suite struct RunAndQueryCommandTests {
    static func database(_ folder: TemporaryDirectory) throws -> String {
        let path = folder.file("t.db")
        let db = try Database(path: path)
        try db.execute("CREATE TABLE w(id INTEGER, name TEXT); INSERT INTO w VALUES (1, 'Ridge'), (2, 'a' || char(27) || '[2J');")
        return path
    }

    @Test func queryDefaultsToListIntoAPipeAndBoxOnATerminal() throws {
        let folder = TemporaryDirectory()
        let path = try Self.database(folder)
        let piped = InProcessRun(["query", "SELECT * FROM w", "-d", path])
        #expect(piped.status == 0)
        #expect(piped.output == "1|Ridge\n2|a\u{1B}[2J\n")
        let shown = InProcessRun(["query", "SELECT * FROM w", "-d", path], isOutputTerminal: true)
        #expect(
            shown.output == """
                ┌────┬──────────┐
                │ id │   name   │
                ├────┼──────────┤
                │  1 │ Ridge    │
                │  2 │ a\\x1b[2J │
                └────┴──────────┘

                """)
    }

    @Test(arguments: [
        ("csv", "1,Ridge\r\n"), ("json", "[{\"id\":1,\"name\":\"Ridge\"}]\n"), ("jsonl", "{\"id\":1,\"name\":\"Ridge\"}\n"),
        ("quote", "1,'Ridge'\n"), ("tsv", "1\tRidge\n"), ("line", "   id = 1\n name = Ridge\n"),
    ])
    func queryWritesEveryMode(mode: String, expected: String) throws {
        let folder = TemporaryDirectory()
        let path = try Self.database(folder)
        let result = InProcessRun(["query", "SELECT * FROM w WHERE id = ?", "--param", "1", "--mode", mode, "-d", path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == expected)
    }

    @Test func queryHeaderFlagsAndNullText() throws {
        let folder = TemporaryDirectory()
        let path = try Self.database(folder)
        let result = InProcessRun(["query", "SELECT id, NULL AS n FROM w WHERE id = 1", "--header", "--null", "∅", "-d", path])
        #expect(result.output == "id|n\n1|∅\n")
        let hidden = InProcessRun(["query", "SELECT id FROM w WHERE id = 1", "--mode", "table", "--no-header", "-d", path])
        #expect(hidden.output == "+---+\n| 1 |\n+---+\n")
    }

    @Test func anUnknownModeIsAUsageError() throws {
        let result = InProcessRun(["query", "SELECT 1", "--mode", "boxx"])
        #expect(result.status == 2)
        #expect(result.error.contains("unknown mode 'boxx'; did you mean 'box'?"))
    }

    @Test func querySafeRefusesReadfile() throws {
        let folder = TemporaryDirectory()
        let path = try Self.database(folder)
        #expect(InProcessRun(["query", "SELECT length(readfile('\(path)')) > 0", "-d", path]).output == "1\n")
        let refused = InProcessRun(["query", "SELECT readfile('\(path)')", "--safe", "-d", path])
        #expect(refused.status == 1)
        #expect(refused.error.contains("the function readfile is not allowed with --safe"))
    }

    @Test func runReadsStandardInputAndPrintsRows() throws {
        let folder = TemporaryDirectory()
        let path = try Self.database(folder)
        let result = InProcessRun(
            ["run", "-", "-d", path], input: Array("INSERT INTO w VALUES (3, 'x');\nSELECT count(*) FROM w;\n".utf8))
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "3\n")
    }

    @Test func runReportsTheErrorWithACaretAndLeavesTheDatabaseUnchanged() throws {
        let folder = TemporaryDirectory()
        let path = try Self.database(folder)
        let script = try folder.write("fix.sql", "DELETE FROM w;\n-- then\nINSERT INTO w VALUES (1, 2, 3);\n")
        let result = InProcessRun(["run", script, "-d", path])
        #expect(result.status == 1)
        #expect(
            result.error == """
                \(script):3:1: error: table w has 2 columns but 3 values were supplied
                    3 | INSERT INTO w VALUES (1, 2, 3);
                      | ^
                cellar: \(script) rolled back: none of its statements were applied

                """)
        #expect(try Database(path: path).scalar("SELECT count(*) FROM w") == .integer(2))
    }

    @Test func runStopsAtTheFirstFailingFileAndKeepsEarlierOnes() throws {
        let folder = TemporaryDirectory()
        let path = try Self.database(folder)
        let first = try folder.write("1.sql", "INSERT INTO w VALUES (10, 'ok');")
        let second = try folder.write("2.sql", "INSERT INTO w VALUES (11, 'ok'); SELEC;")
        let third = try folder.write("3.sql", "INSERT INTO w VALUES (12, 'never');")
        let result = InProcessRun(["run", first, second, third, "-d", path])
        #expect(result.status == 1)
        #expect(result.error.contains("earlier scripts stay applied: \(first)"))
        #expect(try Database(path: path).query("SELECT id FROM w WHERE id >= 10").map(\.values) == [[.integer(10)]])
    }

    @Test func aMissingScriptIsExitOneAndRunsNothing() throws {
        let folder = TemporaryDirectory()
        let path = try Self.database(folder)
        let present = try folder.write("ok.sql", "DELETE FROM w;")
        let result = InProcessRun(["run", present, folder.file("missing.sql"), "-d", path])
        #expect(result.status == 1)
        #expect(result.error.contains("cannot open script '\(folder.file("missing.sql"))': No such file or directory"))
        #expect(try Database(path: path).scalar("SELECT count(*) FROM w") == .integer(2))
    }
}
