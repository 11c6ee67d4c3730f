import CellarCLI
import CellarKit
import TestSupport
import Testing

/// Issue 15 M3: `run` on a read-only database fails before any statement runs (a `SELECT` before the
/// first write printed its rows, then the write failed).
@Suite struct RunReadOnlyTests {
    @Test(arguments: [[], ["--autocommit"]])
    func aReadOnlyDatabaseRunsNoStatement(flags: [String]) throws {
        let folder = TemporaryDirectory()
        let path = folder.file("t.db")
        try Database(path: path).execute("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        let before = try FileBytes.read(path)
        let script = try folder.write("fix.sql", "SELECT 'visible';\nINSERT INTO t VALUES (2);\n")
        let result = InProcessRun(["run", script, "-d", "file:\(path)?mode=ro"] + flags)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("is read-only; no statement was run"), "\(result.error)")
        #expect(try FileBytes.read(path) == before)
    }
}
