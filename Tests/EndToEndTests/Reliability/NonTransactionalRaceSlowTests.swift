import CellarKit
import Glibc
import TestSupport
import Testing

/// Issue 15 H2: racing deploys run a `transaction:false` migration once, not once per process, and
/// none of them fails with a raw `UNIQUE constraint failed`.
@Suite(.serialized) struct NonTransactionalRaceSlowTests {
    /// Migration 2 runs outside a transaction and logs every run of itself in a table of its own, after
    /// work that takes a moment, so that a second run would show.
    /// With `wrapped`, the statements are one `BEGIN` … `COMMIT` of the file's own, which holds the claim
    /// and the ledger row (issue 26).
    private func writeProject(in folder: TemporaryDirectory, wrapped: Bool = false) throws {
        try folder.write("migrations/0001_log.sql", "CREATE TABLE runs (version INTEGER);\n")
        try folder.write(
            "migrations/0002_slow.sql",
            """
            -- migrate:up transaction:false
            \(wrapped ? "BEGIN;\n" : "")CREATE TABLE IF NOT EXISTS filler (n INTEGER);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 200000) INSERT INTO filler SELECT i FROM c;
            INSERT INTO runs VALUES (2);
            \(wrapped ? "COMMIT;\n" : "")
            """)
        try folder.write("migrations/0003_after.sql", "INSERT INTO runs VALUES (3);\n")
    }

    @Test(arguments: [(4, false), (8, false), (4, true), (8, true)])
    func racingDeploysRunItOnce(processes: Int, wrapped: Bool) throws {
        let folder = TemporaryDirectory()
        try writeProject(in: folder, wrapped: wrapped)
        let children = try (0..<processes).map { _ in
            try Cellar.start(["migrate", "-q", "--busy-timeout", "60000"], in: folder.path)
        }
        let results = try children.map { try $0.wait(timeout: 120) }
        for result in results {
            #expect(result.status == 0, "\(result)")
            #expect(!result.error.contains("UNIQUE constraint failed"), "\(result)")
        }
        let database = try Database(path: folder.file("cellar.sqlite"))
        #expect(
            try database.scalar("SELECT group_concat(version) FROM (SELECT version FROM runs ORDER BY rowid)") == .text("2,3"))
        #expect(try database.scalar("SELECT count(*) FROM filler") == .integer(200_000))
        #expect(try database.scalar("SELECT group_concat(kind) FROM cellar_migrations") == .text("applied,applied,applied"))
    }

    /// Issue 26: the claim is written with the file's first statement, so a process that comes second
    /// may prepare that statement after the first process's one committed; `CREATE TABLE` then fails
    /// to prepare ("already exists"), and that process must wait for the claim, not fail.
    @Test func racersThatCannotPrepareTheFirstStatementWaitForTheClaim() throws {
        let folder = TemporaryDirectory()
        try writeProject(in: folder)
        try folder.write(
            "migrations/0002_slow.sql",
            """
            -- migrate:up transaction:false
            CREATE TABLE filler (n INTEGER);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 200000) INSERT INTO filler SELECT i FROM c;
            INSERT INTO runs VALUES (2);

            """)
        let children = try (0..<6).map { _ in try Cellar.start(["migrate", "-q", "--busy-timeout", "60000"], in: folder.path) }
        let results = try children.map { try $0.wait(timeout: 120) }
        for result in results { #expect(result.status == 0, "\(result)") }
        let database = try Database(path: folder.file("cellar.sqlite"))
        #expect(
            try database.scalar("SELECT group_concat(version) FROM (SELECT version FROM runs ORDER BY rowid)") == .text("2,3"))
        #expect(try database.scalar("SELECT count(*) FROM filler") == .integer(200_000))
        #expect(try database.scalar("SELECT group_concat(kind) FROM cellar_migrations") == .text("applied,applied,applied"))
    }

    @Test func aKilledRunLeavesAnUnfinishedClaimThatStatusShowsAndMigrateRefuses() throws {
        let folder = TemporaryDirectory()
        try writeProject(in: folder)
        try folder.write(
            "migrations/0002_slow.sql",
            """
            -- migrate:up transaction:false
            INSERT INTO runs VALUES (2);
            CREATE TABLE filler (n INTEGER);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100000000) INSERT INTO filler SELECT i FROM c;

            """)
        let child = try Cellar.start(["migrate", "-q"], in: folder.path)
        let database = try Database(path: folder.file("cellar.sqlite"))
        // Wait (bounded) until the first statement of migration 2 has committed, then kill the process.
        try Poll.until("migration 2's first statement committed", timeout: 60) {
            (try? database.scalar("SELECT count(*) FROM runs WHERE version = 2")) == .integer(1)
        }
        child.send(SIGKILL)
        _ = try child.wait(timeout: 60)
        #expect(try database.scalar("SELECT kind FROM cellar_migrations WHERE version = 2") == .text("unfinished"))
        let status = try Cellar.run(["status"], in: folder.path)
        #expect(status.output.contains("unfinished 0002 slow"), "\(status)")
        let json = try Cellar.run(["status", "--format", "json"], in: folder.path)
        #expect(json.output.contains("\"state\": \"unfinished\""), "\(json)")
        let rerun = try Cellar.run(["migrate", "--busy-timeout", "200"], in: folder.path)
        #expect(rerun.status == 1, "\(rerun)")
        #expect(rerun.error.contains("migration 2 (slow) was started"), "\(rerun)")
        #expect(try database.scalar("SELECT count(*) FROM runs") == .integer(1))
        #expect(try database.scalar("SELECT count(*) FROM cellar_migrations WHERE version = 3") == .integer(0))
        // Finished by hand, then accepted: the claim becomes an applied row and migrate goes on.
        try database.execute("DROP TABLE IF EXISTS filler")
        let accept = try Cellar.run(["accept", "2"], in: folder.path)
        #expect(accept.status == 0, "\(accept)")
        #expect(try Cellar.run(["migrate", "-q"], in: folder.path).status == 0)
        #expect(try database.scalar("SELECT group_concat(kind) FROM cellar_migrations") == .text("applied,applied,applied"))
    }

    @Test func aRunKilledInsideTheFilesOnlyTransactionLeavesItPendingAndNothingDone() throws {
        let folder = TemporaryDirectory()
        try writeProject(in: folder)
        try folder.write(
            "migrations/0002_slow.sql",
            """
            -- migrate:up transaction:false
            BEGIN;
            INSERT INTO runs VALUES (2);
            CREATE TABLE filler (n INTEGER);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100000000) INSERT INTO filler SELECT i FROM c;
            COMMIT;

            """)
        let child = try Cellar.start(["migrate", "-q"], in: folder.path)
        // Wait (bounded) until the file's transaction holds the write lock (its journal is written), then kill.
        let database = try Database(path: folder.file("cellar.sqlite"), options: .init(busyTimeout: 0))
        try Poll.until("the file's transaction to hold the write lock", timeout: 60) {
            (try? database.execute("BEGIN IMMEDIATE; ROLLBACK")) == nil
                && (try? database.scalar("SELECT count(*) FROM cellar_migrations WHERE version = 1")) == .integer(1)
        }
        // Well inside the long INSERT (the old claim's own transaction would have committed by now).
        usleep(300_000)
        child.send(SIGKILL)
        _ = try child.wait(timeout: 60)
        database.rollbackIfNeeded()
        let status = try Cellar.run(["status"], in: folder.path)
        #expect(status.output.contains("pending"), "\(status)")
        #expect(!status.output.contains("unfinished"), "\(status)")
        #expect(try database.scalar("SELECT count(*) FROM cellar_migrations WHERE version = 2") == .integer(0))
        #expect(try database.scalar("SELECT count(*) FROM runs") == .integer(0))
    }
}
