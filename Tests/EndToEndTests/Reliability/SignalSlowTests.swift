import CellarKit
import Glibc
import TestSupport
import Testing

/// SIGINT and SIGTERM during `migrate` and `run`: the work in flight is rolled back and cellar exits
/// with 128 + the signal.
@Suite struct SignalSlowTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalDuringMigrateRollsBackTheMigrationInFlight(signal: Int32, status: Int32) throws {
        let project = ReliabilityProject(count: 12, rows: 150_000)
        let folder = TemporaryDirectory()
        try project.write(into: folder)
        let child = try Cellar.start(["migrate"], in: folder.path)
        // Ready once a migration has committed: the signal lands in a later one.
        try Poll.until("a migration applied", timeout: 60) {
            ReliabilityProject.appliedCount(at: folder.file("cellar.sqlite")) >= 1
        }
        child.send(signal)
        let result = try child.wait(timeout: 60)
        #expect(result.status == status, "\(result)")
        #expect(result.error.contains("interrupted"), "\(result)")
        #expect(result.error.contains("rolled back"), "\(result)")
        let k = try ConsistencyChecker(project: project).check(folder.file("cellar.sqlite"))
        #expect(k >= 1 && k < project.count, "ledger at \(k)")
        #expect(!FileBytes.exists(folder.file("cellar.sqlite-journal")))
        #expect(try Cellar.run(["migrate", "-q"], in: folder.path).status == 0)
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalDuringRunRollsBackTheScript(signal: Int32, status: Int32) throws {
        let folder = TemporaryDirectory()
        try Database(path: folder.file("r.db")).execute("CREATE TABLE kept(x); INSERT INTO kept VALUES (1)")
        try folder.write(
            "long.sql",
            """
            CREATE TABLE filled (x);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100000000)
            INSERT INTO filled SELECT i FROM c WHERE CASE WHEN i = 1000 THEN writefile('running', '') = 0 ELSE 1 END;
            """)
        let child = try Cellar.start(["run", "long.sql", "-d", "r.db"], in: folder.path)
        // Ready once the long INSERT has reached its thousandth row and said so.
        try Poll.until("the long statement to say it runs", timeout: 60) { FileBytes.exists(folder.file("running")) }
        let sent = ChildProcess.now()
        child.send(signal)
        let result = try child.wait(timeout: 60)
        #expect(ChildProcess.now() - sent < 5)
        #expect(result.status == status, "\(result)")
        #expect(result.error.hasPrefix("long.sql:") && result.error.contains(": error: interrupted"), "\(result)")
        let database = try Database(path: folder.file("r.db"))
        #expect(try database.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'filled'") == .integer(0))
        #expect(try database.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(try database.scalar("SELECT count(*) FROM kept") == .integer(1))
    }

    @Test func sigintDuringAWritingQueryRollsItBack() throws {
        let folder = TemporaryDirectory()
        try Database(path: folder.file("q.db")).execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        let update = """
            UPDATE t SET x = (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c)
            SELECT count(CASE WHEN i = 1000 THEN writefile('running', '') END) FROM c)
            """
        let child = try Cellar.start(["query", update, "-d", "q.db"], in: folder.path)
        try Poll.until("the long statement to say it runs", timeout: 60) { FileBytes.exists(folder.file("running")) }
        child.send(SIGINT)
        let result = try child.wait(timeout: 60)
        #expect(result.status == 130, "\(result)")
        #expect(result.error.hasPrefix("<query>:1:1: error: interrupted"), "\(result)")
        #expect(try Database(path: folder.file("q.db")).scalar("SELECT x FROM t") == .integer(1))
        #expect(!FileBytes.exists(folder.file("q.db-journal")))
    }
}
