import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

@Suite struct InProcessCLITests {
    @Test func helpListsCommandsAndGlobalOptionsOnStandardOutput() {
        let run = InProcessRun(["--help"])
        #expect(run.status == 0)
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "SUBCOMMANDS:", "query", "--database <path>", "--version"] {
            #expect(run.output.contains(section), "missing \(section)")
        }
        #expect(run.error.isEmpty)
    }

    @Test func everyCommandHasHelp() {
        for command in CommandRegistry.commands {
            let run = InProcessRun([command.spec.name, "--help"])
            #expect(run.status == 0)
            #expect(run.output.contains("USAGE: cellar \(command.spec.name)"))
        }
    }

    @Test func versionNamesTheSQLiteLibrary() {
        let run = InProcessRun(["--version"])
        #expect(run.output == "cellar \(VersionInfo.version) (SQLite \(Database.libraryVersion))\n")
    }

    @Test func queryReadsTheDatabaseFromTheEnvironment() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("env.db")
        try Database(path: path).execute("CREATE TABLE t(a); INSERT INTO t VALUES ('from env')")
        let run = InProcessRun(["query", "SELECT a FROM t"], environment: ["CELLAR_DATABASE": path])
        #expect(run.status == 0)
        #expect(run.output == "from env\n")
    }

    @Test func queryBindsNamedAndNumberedParameters() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("p.db")
        try Database(path: path).execute("CREATE TABLE t(a)")
        let run = InProcessRun([
            "query", "SELECT ?2, ?1, :name, typeof(?1), typeof(?3), typeof(?4)", "-d", path, "--param", "1", "--param", "two",
            "--param", "007", "--param", "2.5", "--param", ":name=x'; DROP TABLE t;--",
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "two|1|x'; DROP TABLE t;--|integer|text|real\n")
        #expect(try Database(path: path).scalar("SELECT count(*) FROM sqlite_schema") == .integer(1))
    }

    @Test func queryErrorNamesTheColumnInTheSQL() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("e.db")
        try Database(path: path).execute("CREATE TABLE t(a)")
        let run = InProcessRun(["query", "SELECT 1;\nSELECT nope FROM t", "-d", path])
        #expect(run.status == 1)
        #expect(run.output == "1\n")
        #expect(run.error == "<query>:2:8: error: no such column: nope\n    2 | SELECT nope FROM t\n      |        ^\n")
    }

    @Test func queryWithAMissingParameterFailsWithoutRunning() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("m.db")
        try Database(path: path).execute("CREATE TABLE t(a)")
        let run = InProcessRun(["query", "INSERT INTO t VALUES (?)", "-d", path])
        #expect(run.status == 1)
        #expect(run.error.contains("no value for parameter ?1"))
        #expect(try Database(path: path).scalar("SELECT count(*) FROM t") == .integer(0))
    }

    @Test func queryOfAMissingDatabaseIsAnErrorAndCreatesNothing() {
        let folder = TemporaryDirectory()
        let run = InProcessRun(["query", "SELECT 1", "-d", folder.file("typo.db")])
        #expect(run.status == 1)
        #expect(run.error.contains("no database at"))
        #expect(!FileBytes.exists(folder.file("typo.db")))
    }

    @Test func databaseTextIsEscapedInErrors() throws {
        let run = InProcessRun(["query", "SELECT 1", "-d", "/nonexistent/\u{1B}[2J.db"])
        #expect(run.status == 1)
        #expect(!run.error.contains("\u{1B}"))
        #expect(run.error.contains("\\x1b[2J"))
    }
}

@Suite struct ErrorColourTests {
    private func run(_ arguments: [String], terminal: Bool, environment: [String: String] = [:]) -> String {
        InProcessRun(arguments, environment: environment, isErrorTerminal: terminal).error
    }

    @Test func errorsAreRedOnlyOnATerminalWithoutNoColorUnlessForced() {
        let arguments = ["query", "SELECT 1", "-d", "/nonexistent/x.db"]
        #expect(run(arguments, terminal: true).contains("\u{1B}[1;31merror:"))
        #expect(!run(arguments, terminal: false).contains("\u{1B}"))
        #expect(!run(arguments, terminal: true, environment: ["NO_COLOR": "1"]).contains("\u{1B}"))
        #expect(
            run(arguments + ["--color", "always"], terminal: false, environment: ["NO_COLOR": "1"]).contains("\u{1B}[1;31merror:")
        )
        #expect(!run(arguments + ["--color=never"], terminal: true).contains("\u{1B}"))
    }
}
