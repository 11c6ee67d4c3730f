import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

/// `insert` mode names its table: `.mode insert TABLE` in the shell, `--table NAME` for `query`.
@Suite struct InsertTableNameTests {
    @Test func theShellsModeInsertUsesTheNamedTable() {
        let folder = TemporaryDirectory()
        let run = InProcessRun(
            ["shell", "-d", folder.path + "/s.db"],
            input: ".mode insert wine\nSELECT 1 AS a, 'x' AS b;\n.mode insert\nSELECT 2 AS a;\n")
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "INSERT INTO wine VALUES(1,'x');\nINSERT INTO \"table\" VALUES(2);\n")
    }

    @Test func queryTakesTheTableForInsertMode() {
        let folder = TemporaryDirectory()
        let path = folder.path + "/q.db"
        #expect(InProcessRun(["run", "-", "-d", path], input: "CREATE TABLE t(x);").status == 0)
        let run = InProcessRun(["query", "SELECT 7 AS x", "--mode", "insert", "--table", "my table", "-d", path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "INSERT INTO \"my table\" VALUES(7);\n")
    }
}
