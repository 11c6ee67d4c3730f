import CellarKit
import TestSupport
import Testing

/// The flags users bring from other tools: `-v` and `cellar version`, `--format` for `--mode`,
/// `--readonly`, and a near-miss option named.
@Suite struct ConventionalFlagsTests {
    @Test(arguments: [["-v"], ["version"], ["-V"], ["--version"], ["migrate", "-v"]])
    func everySpellingOfVersionPrintsIt(_ arguments: [String]) {
        let result = InProcessRun(arguments)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("cellar ") && result.output.contains("(SQLite 3."), "\(result.output)")
        #expect(result.error.isEmpty)
    }

    @Test(arguments: ["query", "run"])
    func formatIsAnotherNameForMode(_ command: String) throws {
        let project = try CLIProject()
        try Database(path: project.databasePath).execute("CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 'x');")
        let sql = "SELECT a, b FROM t;"
        let input = command == "run" ? sql : ""
        let target = command == "run" ? "-" : sql
        let viaMode = project.run([command, target, "--mode", "json"], input: input)
        let viaFormat = project.run([command, target, "--format", "json"], input: input)
        #expect(viaMode.status == 0, "\(viaMode.error)")
        #expect(viaFormat.status == 0, "\(viaFormat.error)")
        #expect(viaFormat.output == viaMode.output)
        #expect(viaFormat.output.contains("\"b\":\"x\""), "\(viaFormat.output)")
    }

    @Test func queryReadonlyRefusesAWriteAndChangesNothing() throws {
        let project = try CLIProject()
        try Database(path: project.databasePath).execute("CREATE TABLE t (a); INSERT INTO t VALUES (1);")
        let read = project.run(["query", "--readonly", "SELECT count(*) FROM t", "--mode", "list"])
        #expect(read.status == 0, "\(read.error)")
        #expect(read.output == "1\n")
        let write = project.run(["query", "--readonly", "INSERT INTO t VALUES (2)"])
        #expect(write.status == 1)
        #expect(write.error.contains("readonly"), "\(write.error)")
        #expect(try project.scalar("SELECT count(*) FROM t") == .integer(1))
        let missing = InProcessRun(["query", "--readonly", "SELECT 1", "-d", project.folder.file("nope.db")])
        #expect(missing.status == 1)
        #expect(!FileBytes.exists(project.folder.file("nope.db")))
    }

    @Test func shellReadonlyRefusesAWriteAndCreatesNoFile() throws {
        let project = try CLIProject()
        try Database(path: project.databasePath).execute("CREATE TABLE t (a); INSERT INTO t VALUES (1);")
        let result = project.run(["shell", "--readonly"], input: "INSERT INTO t VALUES (2);\nSELECT count(*) FROM t;\n")
        #expect(result.status == 1)
        #expect(result.error.contains("readonly"), "\(result.error)")
        #expect(result.output.contains("1"), "\(result.output)")
        #expect(try project.scalar("SELECT count(*) FROM t") == .integer(1))
        let missing = InProcessRun(["shell", "--readonly", "-d", project.folder.file("nope.db")], input: "SELECT 1;\n")
        #expect(missing.status == 1)
        #expect(!FileBytes.exists(project.folder.file("nope.db")))
    }

    @Test(arguments: [
        (["query", "SELECT 1", "--formt", "json"], "unknown option '--formt'; did you mean '--format'?"),
        (["migrate", "--dry-rn"], "unknown option '--dry-rn'; did you mean '--dry-run'?"),
        (["status", "--exit-cod"], "unknown option '--exit-cod'; did you mean '--exit-code'?"),
    ])
    func anUnknownOptionSuggestsTheNearestKnownOne(_ arguments: [String], _ message: String) {
        let result = InProcessRun(arguments)
        #expect(result.status == 2)
        #expect(result.error.contains(message), "\(result.error)")
    }
}
