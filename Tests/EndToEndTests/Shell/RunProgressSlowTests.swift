import TestSupport
import Testing

/// `run` on a terminal: after a second, a progress line with bytes of the file's size, statements and rate.
@Suite struct RunProgressSlowTests {
    @Test func aLongScriptShowsItsProgressOnATerminalAndClearsIt() throws {
        let folder = TemporaryDirectory()
        let statement =
            "INSERT INTO t SELECT count(*) FROM (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000) SELECT i FROM c);\n"
        try folder.write("long.sql", "CREATE TABLE t (n);\n" + String(repeating: statement, count: 30_000))
        let session = try TerminalSession(["run", "long.sql", "-d", "p.db"], in: folder)
        let shown = try session.waitUntil(timeout: 60, "a progress line") { $0.contains(" statements, ") }
        let line = try #require(shown.split(separator: "\n").first { $0.contains(" statements, ") })
        #expect(line.hasPrefix("long.sql: ") && line.contains(" MiB of 3.") && line.hasSuffix("/s"), "\(line)")
        let finished = try session.waitFor("[exit 0]", timeout: 120)
        #expect(!finished.contains(" statements, "), "the line is cleared at the end: \(finished)")
    }

    @Test func offATerminalThereIsNoProgress() throws {
        let folder = TemporaryDirectory()
        try folder.write("short.sql", "CREATE TABLE t (n);\nINSERT INTO t VALUES (1);\n")
        let result = try Cellar.run(["run", "short.sql", "-d", "p.db"], in: folder.path)
        #expect(result.status == 0 && result.error.isEmpty, "\(result)")
    }
}
