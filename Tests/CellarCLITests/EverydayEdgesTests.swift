import CellarCLI
import CellarKit
import TestSupport
import Testing

/// Rough edges found by using cellar as a new user would.
@Suite struct EverydayEdgesTests {
    @Test func queryDashReadsTheStatementsFromStandardInput() throws {
        let project = try CLIProject()
        #expect(project.run(["run", "-"], input: "CREATE TABLE t (x); INSERT INTO t VALUES (7);").status == 0)
        let result = project.run(["query", "-"], input: "SELECT x FROM t;\nSELECT x + 1 FROM t;\n")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "7\n8\n")
    }

    @Test(arguments: [("", ""), ("  -- only a comment\n", ""), ("-", ""), ("-", "  ;\n")])
    func aQueryWithoutAStatementIsAUsageError(sql: String, input: String) throws {
        let project = try CLIProject()
        #expect(project.run(["run", "-"], input: "CREATE TABLE t (x);").status == 0)
        let result = project.run(["query", sql], input: input)
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("cellar: error: no SQL statement"), "\(result.error)")
    }

    @Test func aFailingRunRemovesTheDatabaseFileItCreated() throws {
        let project = try CLIProject()
        let script = try project.folder.write("bad.sql", "CREATE TABLE t (x);\nINSERT INTO nowhere VALUES (1);\n")
        let result = project.run(["run", script])
        #expect(result.status == 1)
        #expect(!FileBytes.exists(project.databasePath))
        #expect(project.run(["run", "-"], input: "CREATE TABLE kept (x);").status == 0)
        #expect(project.run(["run", script]).status == 1)
        #expect(try project.tables() == ["kept"])
    }
}
