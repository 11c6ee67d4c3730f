import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

/// Typing and start-up habits of sqlite3 users: prefixes of dot-commands, `cellar shell FILE`, the
/// start-up file, comment-only lines.
@Suite struct ShellStartupTests {
    let folder = TemporaryDirectory()
    var databasePath: String { folder.file("wine.sqlite") }

    init() throws {
        let database = try Database(path: folder.file("wine.sqlite"))
        try database.execute("CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO wine VALUES (1, 'Red');")
    }

    @Test(arguments: [".head on", ".header on", ".headers on"])
    func aUniquePrefixNamesTheCommand(typed: String) {
        let run = InProcessRun(["shell", "-d", databasePath], input: "\(typed)\nSELECT name FROM wine;\n")
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "name\nRed\n")
    }

    @Test func anAmbiguousPrefixListsTheCandidates() {
        let run = InProcessRun(["shell", "-d", databasePath], input: "SELECT 1;\n.mi list\n")
        #expect(run.status == 1)
        #expect(
            run.error.contains("<stdin>:2:1: error: ambiguous command '.mi': .migration, .migrations (see .help)")
        )
    }

    @Test func anAliasAndAFullNameThatPrefixesAnotherStillWork() {
        let run = InProcessRun(["shell", "-d", databasePath], input: ".indices wine\n.q\nSELECT 2;\n")
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.isEmpty)
    }

    @Test func theDatabaseCanBeGivenAsAnArgument() {
        let run = InProcessRun(["shell", databasePath], input: "SELECT name FROM wine;\n")
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "Red\n")
        let both = InProcessRun(["shell", "-d", databasePath, databasePath], input: "SELECT 1;\n")
        #expect(both.status == 2)
        #expect(both.error.contains("give the database once"))
    }

    @Test func theArgumentBeatsTheEnvironmentVariable() {
        let run = InProcessRun(
            ["shell", databasePath], input: "SELECT name FROM wine;\n",
            environment: ["CELLAR_DATABASE": folder.file("other.sqlite")])
        #expect(run.output == "Red\n")
    }

    @Test func theStartupFileInHomeRunsFirst() throws {
        try folder.write(".cellarrc", "-- my settings\n.headers on\n.mode list\n")
        let run = InProcessRun(
            ["shell", databasePath], input: "SELECT id, name FROM wine;\n", environment: ["HOME": folder.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "id|name\n1|Red\n")
    }

    @Test func initNamesAnotherStartupFileAndItsErrorsNameIt() throws {
        try folder.write(".cellarrc", ".mode csv\n")
        let startup = try folder.write("start.sql", ".headers on\nSELECT nope;\n")
        let run = InProcessRun(
            ["shell", databasePath, "--init", startup], input: "SELECT name FROM wine;\n", environment: ["HOME": folder.path])
        #expect(run.output == "name\nRed\n")
        #expect(run.error.contains("\(startup):2:8: error: no such column: nope"))
    }

    @Test func safeModeSkipsTheStartupFileAndRefusesInit() throws {
        try folder.write(".cellarrc", ".headers on\n")
        let run = InProcessRun(
            ["shell", databasePath, "--safe"], input: "SELECT name FROM wine;\n", environment: ["HOME": folder.path])
        #expect(run.output == "Red\n")
        let refused = InProcessRun(["shell", databasePath, "--safe", "--init", folder.file(".cellarrc")], input: "")
        #expect(refused.status == 2)
        #expect(refused.error.contains("--init cannot be used with --safe"))
    }

    @Test func aMissingInitFileIsReportedAndTheShellStillRuns() {
        let run = InProcessRun(["shell", databasePath, "--init", folder.file("none.sql")], input: "SELECT 1;\n")
        #expect(run.output == "1\n")
        #expect(run.error.contains("cannot read"))
    }

    @Test(arguments: ["-- a note", "   -- indented", "/* a */", "/* a */ -- b", "\t"])
    func aLineOfCommentsAloneStartsNoStatement(line: String) {
        var accumulator = StatementAccumulator()
        #expect(accumulator.add(line, lineNumber: 1) == .pending)
        #expect(accumulator.isEmpty)
        #expect(accumulator.add("SELECT 1;", lineNumber: 2) == .sql("SELECT 1;", firstLine: 2))
    }

    @Test(arguments: ["/* open", "SELECT 1 -- no semicolon"])
    func aCommentThatStaysOpenOrPrecedesSQLStillContinues(line: String) {
        var accumulator = StatementAccumulator()
        #expect(accumulator.add(line, lineNumber: 1) == .pending)
        #expect(!accumulator.isEmpty)
    }

    @Test(arguments: [("head", DotCommandCatalog.Resolution.command("headers")), ("in", .command("indexes")), ("zz", .unknown)])
    func resolution(typed: String, expected: DotCommandCatalog.Resolution) {
        #expect(DotCommandCatalog.resolve(typed) == expected)
    }
}
