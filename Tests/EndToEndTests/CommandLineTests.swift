import TestSupport
import Testing

@Suite struct CommandLineTests {
    @Test func versionNamesCellarAndSQLite() throws {
        let result = try Cellar.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("cellar "))
        #expect(result.output.contains("SQLite 3."))
    }

    @Test func queryBindsParametersEndToEnd() throws {
        let folder = TemporaryDirectory()
        try Shell.run(
            "/usr/bin/sqlite3",
            [folder.file("t.db"), "CREATE TABLE w(id INTEGER, name TEXT); INSERT INTO w VALUES (1, 'a'), (2, 'b');"])
        let result = try Cellar.run(["query", "SELECT name FROM w WHERE id = ?", "--param", "2", "-d", "t.db"], in: folder.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "b\n")
    }

    @Test(arguments: [
        (["qurey"], "did you mean 'query'?"),
        (["query", "SELECT 1", "--mdoe", "list"], "did you mean '--mode'?"),
        (["query"], "missing argument <sql>"),
        (["query", "SELECT 1", "--param"], "needs a value"),
    ])
    func usageErrorsExitTwoOnStandardError(arguments: [String], message: String) throws {
        let result = try Cellar.run(arguments)
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.error.contains(message), "\(result)")
    }
}
