import CellarKit
import Glibc
import TestSupport
import Testing

/// Checkpoints under races, kills and a dqlite cluster: a new database is built from the checkpoint once,
/// wholly or not at all.
@Suite(.serialized) struct CheckpointSlowTests {
    /// A history whose checkpoint takes a moment to run: 0001 logs itself in `runs` (a second run fails
    /// on its primary key) and fills `items` with `rows` rows; 0002 adds an index and logs itself; 0003,
    /// above the checkpoint, logs itself too.
    private func squashedHistory(rows: Int) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try folder.write(
            "migrations/0001_items.sql",
            """
            CREATE TABLE runs (version INTEGER PRIMARY KEY);
            INSERT INTO runs VALUES (1);
            CREATE TABLE items (id INTEGER PRIMARY KEY, payload TEXT NOT NULL);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < \(rows))
            INSERT INTO items (payload) SELECT printf('item %08d', i) FROM c;

            """)
        try folder.write(
            "migrations/0002_index.sql", "CREATE INDEX items_by_payload ON items (payload);\nINSERT INTO runs VALUES (2);\n")
        try folder.write(
            "migrations/0003_more.sql", "CREATE TABLE more (id INTEGER PRIMARY KEY);\nINSERT INTO runs VALUES (3);\n")
        let squash = try Cellar.run(["squash", "--to", "2"], in: folder.path, timeout: 300)
        #expect(squash.status == 0, "\(squash)")
        unlink(folder.file("migrations/0001_items.sql"))
        unlink(folder.file("migrations/0002_index.sql"))
        return folder
    }

    @Test func processesBootstrappingOneNewFileTogetherRunTheCheckpointOnce() throws {
        let folder = try squashedHistory(rows: 60_000)
        for round in 0..<3 {
            let name = "race\(round).sqlite"
            let processes = try (0..<3).map { index in
                try Cellar.start([index == 0 ? "setup" : "migrate", "-d", name, "--busy-timeout", "60000"], in: folder.path)
            }
            let results = try processes.map { try $0.wait(timeout: 300) }
            for result in results { #expect(result.status == 0, "round \(round): \(result)") }
            #expect(results.filter { $0.output.contains("applied checkpoint.sql (0001…0002)") }.count == 1, "\(results)")
            let database = try Database(path: folder.file(name))
            #expect(try database.scalar("SELECT group_concat(version) FROM runs") == .text("1,2,3"))
            #expect(try database.scalar("SELECT count(*) FROM items") == .integer(60_000))
            #expect(
                try database.scalar("SELECT group_concat(kind) FROM cellar_migrations") == .text("checkpoint,checkpoint,applied"))
        }
    }

    @Test func killedWhileTheCheckpointRunsTheDatabaseStaysAsBefore() throws {
        let rows = 150_000
        let folder = try squashedHistory(rows: rows)
        let start = ChildProcess.now()
        #expect(try Cellar.run(["migrate", "-q", "-d", "calibration.sqlite"], in: folder.path, timeout: 300).status == 0)
        let fullRun = ChildProcess.now() - start
        var generator = SystemRandomNumberGenerator()
        var outcomes: Set<Int> = []
        for round in 0..<8 {
            let name = "killed\(round).sqlite"
            let child = try Cellar.start(["migrate", "-q", "-d", name], in: folder.path)
            usleep(UInt32(Double.random(in: 0.05...(fullRun * 1.1), using: &generator) * 1_000_000))
            child.send(SIGKILL)
            _ = try child.wait(timeout: 60)
            let path = folder.file(name)
            var versions = 0
            if FileBytes.exists(path) {
                let database = try Database(path: path)
                #expect(try database.scalar("PRAGMA integrity_check") == .text("ok"))
                let recorded = try Migrator(database: database, migrations: []).applied()
                versions = recorded.count
                let tables = try database.query(
                    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'cellar%' ORDER BY name"
                ).map { $0[0] }
                switch versions {
                case 0: #expect(tables.isEmpty, "no ledger rows, yet tables \(tables)")
                case 2, 3:
                    #expect(try database.scalar("SELECT count(*) FROM items") == .integer(Int64(rows)))
                    #expect(recorded.prefix(2).allSatisfy { $0.isCheckpoint })
                default: Issue.record("ledger of \(versions) rows: the checkpoint was cut in two")
                }
            }
            outcomes.insert(versions)
            let rerun = try Cellar.run(["migrate", "-q", "-d", name], in: folder.path, timeout: 300)
            #expect(rerun.status == 0, "\(rerun)")
            let database = try Database(path: path)
            #expect(try database.scalar("SELECT group_concat(version) FROM runs") == .text("1,2,3"))
            #expect(try database.scalar("SELECT count(*) FROM items") == .integer(Int64(rows)))
        }
        #expect(!outcomes.isEmpty)
    }

    @Test(.enabled(if: DqliteCluster.unavailableReason == nil, "\(DqliteCluster.unavailableReason ?? "")"))
    func aDqliteDatabaseIsBootstrappedFromTheCheckpointAsAFileIs() throws {
        let folder = try squashedHistory(rows: 500)
        let cluster = try DqliteCluster()
        let remote = try Cellar.run(["setup", "-d", cluster.url("app"), "--busy-timeout", "30000"], in: folder.path)
        let local = try Cellar.run(["setup", "-d", "app.sqlite"], in: folder.path)
        #expect(remote.status == 0, "\(remote)")
        let withoutTimes = { (output: String) in output.replacing(/\d+ ms/, with: "N ms") }
        #expect(withoutTimes(remote.output) == withoutTimes(local.output))
        #expect(remote.output.hasPrefix("applied checkpoint.sql (0001…0002) ("), "\(remote)")
        let query =
            "SELECT version, name, checksum, kind FROM cellar_migrations ORDER BY version; "
            + "SELECT group_concat(version) FROM runs; SELECT count(*), max(payload) FROM items"
        let remoteRows = try Cellar.run(["-d", cluster.url("app"), "query", query, "--mode", "csv"], in: folder.path)
        let localRows = try Cellar.run(["-d", "app.sqlite", "query", query, "--mode", "csv"], in: folder.path)
        #expect(remoteRows.status == 0, "\(remoteRows)")
        #expect(remoteRows.output == localRows.output)
        #expect(remoteRows.output.ranges(of: ",checkpoint").count == 2, "\(remoteRows)")
        let status = try Cellar.run(["-d", cluster.url("app"), "status"], in: folder.path)
        #expect(status.output.contains("  squashed 0001 items"), "\(status)")
        let rollback = try Cellar.run(["-d", cluster.url("app"), "rollback", "--steps", "2"], in: folder.path)
        #expect(rollback.status == 1 && rollback.error.contains("cannot roll back below version 2"), "\(rollback)")
        #expect(try Cellar.run(["-d", cluster.url("app"), "verify"], in: folder.path).status == 0)
    }
}
