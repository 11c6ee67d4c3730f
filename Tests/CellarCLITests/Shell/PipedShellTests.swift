import CellarKit
import Glibc
import TestSupport
import Testing

@testable import CellarCLI

/// `cellar shell` with standard input that is not a terminal, run in-process.
@Suite struct PipedShellTests {
    let folder = TemporaryDirectory()
    var databasePath: String { folder.file("wine.sqlite") }

    init() throws {
        let database = try Database(path: folder.file("wine.sqlite"))
        try database.execute(
            """
            CREATE TABLE winery (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT, rating INTEGER, winery_id INTEGER REFERENCES winery(id));
            CREATE INDEX wine_rating ON wine(rating);
            INSERT INTO winery VALUES (1, 'Chateau'), (2, 'O''Brien');
            INSERT INTO wine VALUES (1, 'Red', 4, 1), (2, 'White', NULL, 2);
            """)
    }

    private func shell(_ input: String, _ extra: [String] = []) -> InProcessRun {
        InProcessRun(["shell", "-d", databasePath] + extra, input: input)
    }

    private func count(_ sql: String) throws -> Value? {
        try Database(path: databasePath).scalar(sql)
    }

    @Test func statementsOnOneLineAndAcrossLinesAllRun() {
        let run = shell("SELECT 1; SELECT 2;\nSELECT\n  name\nFROM wine\nORDER BY id;\n")
        #expect(run.status == 0)
        #expect(run.output == "1\n2\nRed\nWhite\n")
        #expect(run.error.isEmpty)
    }

    @Test func windowsLineEndingsWork() {
        let run = shell(".headers on\r\nSELECT name\r\nFROM winery WHERE id = 1;\r\n.tables winery\r\n")
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "name\nChateau\nwinery\n")
    }

    @Test func anErrorNamesTheInputLineAndColumnAndTheExitStatusIsOne() throws {
        let run = shell("SELECT 1;\nINSERT INTO wine (name) VALUES ('Rose');\nSELECT\n  nope FROM wine;\nSELECT 3;\n")
        #expect(run.status == 1)
        #expect(run.output == "1\n3\n")
        #expect(run.error.hasPrefix("<stdin>:4:3: error: no such column: nope\n    4 |   nope FROM wine;\n      |   ^"))
        #expect(try count("SELECT count(*) FROM wine") == .integer(3))
    }

    @Test func aStepTimeErrorPointsAtItsStatement() {
        let run = shell("SELECT 1;  INSERT INTO winery VALUES (1, 'again');\n")
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("<stdin>:1:12: error: UNIQUE constraint failed: winery.id"))
    }

    @Test(arguments: [["--bail"], []])
    func bailStopsAtTheFirstError(flags: [String]) throws {
        let input =
            (flags.isEmpty ? ".bail on\n" : "")
            + "INSERT INTO wine (name) VALUES ('a');\nSELECT nope;\nINSERT INTO wine (name) VALUES ('b');\n"
        let run = shell(input, flags)
        #expect(run.status == 1)
        #expect(run.error.contains("no such column: nope"))
        #expect(try count("SELECT group_concat(name) FROM wine WHERE id > 2") == .text("a"))
    }

    @Test func withoutBailEveryStatementRuns() throws {
        let run = shell("SELECT nope;\nINSERT INTO wine (name) VALUES ('b');\n")
        #expect(run.status == 1)
        #expect(try count("SELECT count(*) FROM wine WHERE name = 'b'") == .integer(1))
    }

    @Test func tablesIndexesAndSchema() {
        let run = shell(".tables\n.tables win%y\n.indexes wine\n.schema winery\n")
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.output == """
                wine    winery
                winery
                wine_rating
                CREATE TABLE winery (id INTEGER PRIMARY KEY, name TEXT NOT NULL);

                """)
    }

    @Test func aPatternIsBoundNeverPastedIntoSQL() {
        let run = shell(".schema \"x' OR '1'='1\"\n.tables x' OR '1'='1\n.indexes ' OR 1=1 --\n")
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
        #expect(run.error.isEmpty)
    }

    @Test func headersNullValueAndMode() {
        let run = shell(".headers on\n.nullvalue (null)\nSELECT name, rating FROM wine ORDER BY id;\n.headers off\n.mode\n")
        #expect(run.output == "name|rating\nRed|4\nWhite|(null)\ncurrent output mode: list\n")
    }

    @Test func anUnknownModeOrCommandFailsWithASuggestion() {
        let run = shell(".mode lsit\n.tabels\n")
        #expect(run.status == 1)
        #expect(run.error.contains("<stdin>:1:1: error: unknown mode 'lsit'; did you mean 'list'?"))
        #expect(run.error.contains("<stdin>:2:1: error: unknown command '.tabels'; did you mean '.tables'?"))
    }

    @Test func longResultsShowTheirFirstAndLastRowsWithANoteOnStandardError() {
        let run = shell(
            ".maxrows 40\nWITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) SELECT x FROM c;\n")
        let lines: [String] = run.output.split(separator: "\n").map { String($0) }
        let expected: [String] = (1...20).map { String($0) } + (99981...100000).map { String($0) }
        #expect(lines == expected)
        let note = "(100000 rows, 99960 not shown: the first 20 and the last 20 are; .maxrows all shows every row)\n"
        #expect(run.error == note)
    }

    @Test func pipedInputGetsEveryRowByDefault() {
        let run = shell(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) SELECT x FROM c;\n.maxrows\n")
        #expect(run.output.split(separator: "\n").count == 1001)
        #expect(run.output.hasSuffix("1000\nmaxrows: 40 in box, table, markdown and line; all in the other modes\n"))
        #expect(run.error.isEmpty)
    }

    /// Piped, the human modes show the long-result view's 40 rows, the first 20 and the last 20, while
    /// the machine modes (the data a script writes) keep every row; `.maxrows` sets one view for all.
    @Test(arguments: ["box", "table", "markdown", "line"])
    func pipedHumanModesShowTheFirstAndLastTwentyRows(mode: String) {
        let query = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100) SELECT x FROM c;\n"
        let run = shell(".mode \(mode)\n" + query)
        #expect(run.status == 0, "\(run.error)")
        let values = run.output.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.filter { $0 > 0 }
        #expect(values.prefix(40) == ArraySlice(Array(1...20) + Array(81...100)), "\(run.output)")
        #expect(run.output.contains("(100 rows, 60 not shown: the first 20 and the last 20 are)"), "\(run.output)")
        let all = shell(".mode \(mode)\n.maxrows all\n" + query)
        #expect(!all.output.contains("not shown"))
        #expect(all.output.contains("50"))
        let csv = shell(".mode csv\n" + query)
        #expect(csv.output.split(separator: "\r\n").count == 100)
    }

    @Test func humanModesMarkTheGapInTheResult() {
        let run = shell(
            ".mode table\n.maxrows 4\nWITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50) SELECT x FROM c;\n"
        )
        #expect(run.output.contains("|  1 |\n|  2 |\n| …  |\n| 49 |\n| 50 |\n"))
        #expect(run.output.contains("(50 rows, 46 not shown: the first 2 and the last 2 are)"))
        #expect(!run.output.contains("| 3 "))
    }

    @Test func maxRowsChangesTheViewAndAllShowsEverything() {
        let query =
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50) SELECT x, 'v' || x AS v FROM c;\n"
        let four = shell(".maxrows 4\n.headers on\n" + query)
        #expect(four.output.split(separator: "\n") == ["x|v", "1|v1", "2|v2", "49|v49", "50|v50"])
        #expect(four.error.contains("(50 rows, 46 not shown"))
        let all = shell(".maxrows 4\n.maxrows all\n" + query)
        #expect(all.output.split(separator: "\n").count == 50)
        #expect(all.error.isEmpty)
        let bad = shell(".maxrows 0\n")
        #expect(bad.status == 1)
        #expect(bad.error.contains("Usage: .maxrows N|all"))
    }

    @Test func aShortResultKeepsItsValuesExactly() {
        let run = shell(".maxrows 3\nSELECT 1, 2.5, 'text', X'00FF', NULL;\n")
        #expect(run.output == "1|2.5|text|00ff|\n")
        #expect(run.error.isEmpty)
    }

    @Test func parametersAreBoundByName() {
        let run = shell(
            ".parameter set :id 2\n.parameter set @n O'Brien\nSELECT name FROM wine WHERE id = :id;\nSELECT id FROM winery WHERE name = @n;\n.parameter list\n.parameter clear\n.parameter list\n"
        )
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "White\n2\n:id 2\n@n 'O''Brien'\n")
    }

    @Test func changesAndTimer() {
        let run = shell(".changes on\nUPDATE wine SET rating = 5;\nSELECT 1;\n.changes off\n.timer on\nSELECT 2;\n")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines[0] == "changes: 2   total_changes: 2")
        #expect(lines[1] == "1")
        #expect(lines[2] == "2")
        #expect(lines[3].hasPrefix("Run Time: real 0."))
        #expect(lines[3].contains(" user ") && lines[3].contains(" sys "))
    }

    @Test func readRunsAFileAndItsErrorsNameIt() throws {
        let script = try folder.write("fix.sql", "INSERT INTO wine (name) VALUES ('Rose');\n.headers on\nSELECT bad FROM wine;\n")
        let run = shell(".read \(script)\nSELECT count(*) AS n FROM wine;\n")
        #expect(run.status == 1)
        #expect(run.error.contains("\(script):3:8: error: no such column: bad"))
        #expect(run.output == "n\n3\n")
        let missing = shell(".read \(folder.file("nope.sql"))\n")
        #expect(missing.status == 1)
        #expect(missing.error.contains("cannot read"))
    }

    @Test func readRefusesAFileThatIsNotUTF8AndRunsNothingOfIt() throws {
        let script = try folder.write(
            "latin1.sql", bytes: Array("DELETE FROM wine;\nSELECT 'caf".utf8) + [0xE9, 0x27, 0x3B, 0x0A])
        let run = shell(".read \(script)\n")
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("\(script):2:12: error: invalid UTF-8 (byte 0xe9)"))
        #expect(try count("SELECT count(*) FROM wine") == .integer(2))
    }

    @Test func aLineOfStandardInputThatIsNotUTF8IsAnErrorAtItsPlace() throws {
        let input = Array("SELECT 1;\nINSERT INTO wine (name) VALUES\n ('caf".utf8) + [0xE9] + Array("');\nSELECT 2;\n".utf8)
        let run = InProcessRun(["shell", "-d", databasePath], input: input)
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("<stdin>:3:7: error: invalid UTF-8 (byte 0xe9)"))
        #expect(run.output == "1\n2\n")
        #expect(try count("SELECT count(*) FROM wine") == .integer(2))
    }

    /// The attack of issue 15 (C1): a string literal whose first line is not UTF-8 holds lines that
    /// look like statements and dot-commands. None of them may run.
    @Test(arguments: [UInt8(0xFF), 0x00])
    func theRestOfAStringLiteralAfterABadLineNeverRuns(badByte: UInt8) throws {
        let victim = try folder.write("victim.txt", "keep me\n")
        let fresh = folder.file("fresh.txt")
        let input =
            Array("SELECT 'a".utf8) + [badByte]
            + Array(
                "b\nDELETE FROM wine;\n.output \(victim)\nSELECT 'owned';\n.output \(fresh)\n';\nSELECT count(*) FROM wine;\n"
                    .utf8)
        let run = InProcessRun(["shell", "-d", databasePath], input: input)
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("<stdin>:1:10: error: "), "\(run.error)")
        #expect(run.error.contains("the statement this line belongs to is skipped"))
        #expect(run.error.ranges(of: "error:").count == 1, "one error only: \(run.error)")
        #expect(run.output == "2\n")
        #expect(try count("SELECT count(*) FROM wine") == .integer(2))
        #expect(try FileBytes.readText(victim) == "keep me\n")
        #expect(!FileBytes.exists(fresh))
    }

    @Test func aBadLineInsideATriggerBodySkipsTheWholeTrigger() throws {
        let input =
            Array("CREATE TRIGGER t AFTER INSERT ON wine BEGIN\n  DELETE FROM winery; -- caf".utf8) + [0xE9]
            + Array("\n  DELETE FROM wine;\nEND;\nINSERT INTO wine (name) VALUES ('after');\n".utf8)
        #expect(InProcessRun(["shell", "-d", databasePath], input: input).status == 1)
        #expect(try count("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger'") == .integer(0))
        #expect(try count("SELECT count(*) FROM winery") == .integer(2))
        #expect(try count("SELECT count(*) FROM wine") == .integer(3))
    }

    @Test func aDotCommandLineThatIsNotUTF8IsSkippedAlone() throws {
        let target = folder.file("out.txt")
        let input = Array(".output \(target)".utf8) + [0xFF] + Array("\nSELECT 'still here';\n".utf8)
        let run = InProcessRun(["shell", "-d", databasePath], input: input)
        #expect(run.status == 1)
        #expect(run.output == "still here\n")
        #expect(!FileBytes.exists(target))
    }

    @Test func outputRedirectsResultsToAFile() throws {
        let target = folder.file("out.txt")
        let run = shell(".output \(target)\nSELECT 'to file';\n.output\nSELECT 'to stdout';\n")
        #expect(run.output == "to stdout\n")
        #expect(try FileBytes.readText(target) == "to file\n")
    }

    @Test func openSwitchesDatabasesAndDatabasesNamesTheFile() throws {
        let other = folder.file("other.sqlite")
        let run = shell(".open \(other)\nCREATE TABLE t (x);\n.databases\n.tables\n")
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "main: \(other) r/w\nt\n")
        #expect(try count("SELECT count(*) FROM sqlite_schema WHERE name = 't'") == .integer(0))
    }

    @Test func quitStopsReadingAndAnOpenTransactionIsRolledBackWithAWarning() throws {
        let run = shell("BEGIN;\nDELETE FROM wine;\n.quit\nSELECT 'not reached';\n")
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
        #expect(run.error.contains("the open transaction was rolled back"))
        #expect(try count("SELECT count(*) FROM wine") == .integer(2))
    }

    /// Issue 15 M5: `.open` with a transaction open says it rolls the transaction back, as `.quit` does.
    @Test func openWithATransactionOpenRollsItBackWithAWarning() throws {
        let other = folder.file("other.sqlite")
        let run = shell("BEGIN;\nDELETE FROM wine;\n.open \(other)\n.databases\n")
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("cellar: warning: the open transaction was rolled back"), "\(run.error)")
        #expect(run.output == "main: \(other) r/w\n")
        #expect(try count("SELECT count(*) FROM wine") == .integer(2))
    }

    @Test func endOfInputInsideATransactionRollsBackWithAWarning() throws {
        let run = shell("BEGIN;\nDELETE FROM wine;\n")
        #expect(run.error.contains("the open transaction was rolled back"))
        #expect(try count("SELECT count(*) FROM wine") == .integer(2))
    }

    @Test func migrationsShowsTheStateOfEveryMigration() throws {
        let migrations = folder.file("migrations")
        try folder.write("migrations/0001_create_region.sql", "CREATE TABLE region (name TEXT);\n")
        try folder.write("migrations/0002_add_grape.sql", "CREATE TABLE grape (name TEXT);\n")
        let migrate = InProcessRun(["migrate", "--to", "1", "-d", databasePath, "-m", migrations])
        #expect(migrate.status == 0, "\(migrate.error)")
        let run = shell(".migrations\n", ["-m", migrations])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0] == "database \(databasePath) at version 1")
        #expect(lines[2].hasPrefix("  applied  0001 create_region  "))
        #expect(lines[3] == "  pending  0002 add_grape")
    }

    @Test func migrationsWithoutAFolderShowsRecordedMigrationsAsMissing() {
        let run = shell(".migrations\n", ["-m", folder.file("none")])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("(no migrations folder '\(folder.file("none"))': recorded migrations show as missing)\n"))
        #expect(run.output.hasSuffix("at version 0\nmigrations:\n  (none)\n"))
    }

    @Test func migrationsNamesABadMigrationFile() {
        let bad = folder.file("bad")
        TemporaryDirectory.makeFolders(bad)
        _ = try? folder.write("bad/notes.sql", "SELECT 1;\n")
        let run = shell(".migrations\n", ["-m", bad])
        #expect(run.status == 1)
        #expect(run.error.contains("notes.sql"))
    }

    @Test func fileFunctionsMoveBlobsInAndOut() throws {
        let source = try folder.write("label.bin", bytes: [0x89, 0x50, 0x4E, 0x47])
        let target = folder.file("copy.bin")
        let run = shell("SELECT hex(readfile('\(source)'));\nSELECT writefile('\(target)', X'0102');\n")
        #expect(run.output == "89504E47\n2\n")
        #expect(try FileBytes.read(target) == [1, 2])
    }

    @Test func fileFunctionsCannotBeCalledFromAView() throws {
        try Database(path: databasePath).execute("CREATE VIEW leak AS SELECT readfile('/etc/passwd') AS secret")
        let run = shell("SELECT * FROM leak;\n")
        #expect(run.status == 1)
        #expect(run.error.contains("unsafe use of readfile()"))
    }

    @Test(arguments: [
        ("SELECT readfile('DIR/x');", "not authorized to use function: readfile"),
        ("SELECT writefile('DIR/x', 'y');", "not authorized to use function: writefile"),
        ("ATTACH 'DIR/other.sqlite' AS o;", "ATTACH or VACUUM INTO is not allowed with --safe"),
        ("VACUUM INTO 'DIR/copy.sqlite';", "ATTACH or VACUUM INTO is not allowed with --safe"),
        (".open DIR/other.sqlite", ".open is not allowed with --safe"),
        (".output DIR/out.txt", ".output is not allowed with --safe"),
        (".read DIR/fix.sql", ".read is not allowed with --safe"),
    ])
    func safeModeRefusesFilesAndOtherDatabases(input: String, message: String) throws {
        try folder.write("fix.sql", "CREATE TABLE x (y);\n")
        let run = shell(
            input.split(separator: "DIR", omittingEmptySubsequences: false).joined(separator: folder.path) + "\n", ["--safe"])
        #expect(run.status == 1)
        #expect(run.error.contains(message), "\(run.error)")
        for name in ["x", "other.sqlite", "copy.sqlite", "out.txt"] {
            #expect(!FileBytes.exists(folder.file(name)))
        }
        #expect(try count("SELECT count(*) FROM sqlite_schema WHERE name = 'x'") == .integer(0))
    }

    @Test func safeModeStillAllowsPlainVacuumAndQueries() {
        let run = shell("VACUUM;\nSELECT count(*) FROM wine;\n", ["--safe"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "2\n")
    }

    @Test func helpListsEveryDotCommand() {
        let run = shell(".help\n")
        for entry in DotCommandCatalog.entries {
            #expect(run.output.contains("." + entry.name))
        }
    }

    @Test func schemaKeepsItsLayoutButEscapesControlCharactersOnATerminal() throws {
        try Database(path: databasePath).execute("CREATE TABLE note (\n\tbody TEXT -- \u{1B}]0;owned\u{07}\n)")
        let run = InProcessRun(["shell", "-d", databasePath], input: ".schema note\n", isOutputTerminal: true)
        #expect(run.status == 0)
        #expect(run.output == "CREATE TABLE note (\n\tbody TEXT -- \\x1b]0;owned\\x07\n);\n")
    }

    @Test func controlCharactersFromTheDatabaseAreEscapedOnATerminal() {
        let run = InProcessRun(
            ["shell", "-d", databasePath],
            input: ".mode list\nSELECT 'a' || char(27) || '[31mb';\nCREATE TABLE \"t\u{1B}x\" (y);\n.tables t%\n",
            isOutputTerminal: true)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "a\\x1b[31mb\nt\\x1bx\n")
    }
}
