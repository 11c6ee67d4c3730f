import Glibc
import TestSupport
import Testing

/// SIGINT and SIGTERM during `migrate` on a real 3-node dqlite cluster behave as on a file: the
/// migration in flight is rolled back, cellar says `interrupted` at its statement and that it was rolled
/// back, and exits 130 or 143. Before, the
/// signal watcher skipped a dqlite connection: the process died silently and the leader committed.
@Suite(.serialized, .enabled(if: DqliteCluster.unavailableReason == nil, "\(DqliteCluster.unavailableReason ?? "")"))
struct DqliteSignalSlowTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalDuringMigrateRollsTheMigrationBack(signal: Int32, status: Int32) throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.migration("0001_first.sql", "CREATE TABLE first(x);")
        // The second migration's INSERT keeps the leader busy for many seconds.
        try project.migration(
            "0002_long.sql",
            """
            CREATE TABLE counted(n);
            INSERT INTO counted SELECT count(*) FROM (
              WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 15000000) SELECT i FROM c);
            """)
        let pause = try project.folder.write("pause", "")
        let child = try Cellar.start(
            ["-d", cluster.url("app"), "--busy-timeout", "30000", "migrate"], in: project.folder.path,
            environment: ["CELLAR_FAULT_PAUSE": "statement:2:1", "CELLAR_FAULT_PAUSE_FILE": pause])
        try Poll.until("cellar to reach the INSERT", timeout: 60) { access(pause + ".reached", F_OK) == 0 }
        unlink(pause)
        // The INSERT is on its way to the leader once the pause is over (it polls every 10 ms).
        usleep(500_000)
        child.send(signal)
        let result = try child.wait(timeout: 120)
        #expect(result.status == status, "\(result)")
        #expect(result.error.contains("0002_long.sql:") && result.error.contains(": error: interrupted"), "\(result)")
        #expect(result.error.contains("rolled back"), "\(result)")
        // No version is claimed when the dropped connection cannot read it again (never a wrong one).
        #expect(!result.error.contains("still at version 0"), "\(result)")
        let ledger = try project.remote(
            cluster, "app", ["query", "SELECT group_concat(version) FROM cellar_migrations", "--mode", "list"],
            busyTimeout: 120_000)
        #expect(ledger.output == "1\n", "\(ledger)")
        let tables = try project.remote(
            cluster, "app", ["query", "SELECT count(*) FROM sqlite_schema WHERE name = 'counted'", "--mode", "list"],
            busyTimeout: 120_000)
        #expect(tables.output == "0\n", "\(tables)")
    }

    /// `run` and `query` on a cluster were not guarded at all: a signal ended the process at once, with
    /// no word, whatever the leader then did with the script's transaction.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalDuringRunRollsTheScriptBack(signal: Int32, status: Int32) throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.folder.write(
            "long.sql",
            """
            CREATE TABLE counted(n);
            INSERT INTO counted SELECT count(*) FROM (
              WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 15000000) SELECT i FROM c);

            """)
        let child = try Cellar.start(
            ["-d", cluster.url("app"), "--busy-timeout", "30000", "run", "long.sql"], in: project.folder.path)
        // The INSERT keeps the leader busy for many seconds once it is sent.
        usleep(2_000_000)
        child.send(signal)
        let result = try child.wait(timeout: 120)
        #expect(result.status == status, "\(result)")
        #expect(result.error.contains("long.sql:2:1: error: interrupted"), "\(result)")
        #expect(result.error.contains("long.sql rolled back"), "\(result)")
        let tables = try project.remote(
            cluster, "app", ["query", "SELECT count(*) FROM sqlite_schema WHERE name = 'counted'", "--mode", "list"],
            busyTimeout: 120_000)
        #expect(tables.output == "0\n", "\(tables)")
    }
}
