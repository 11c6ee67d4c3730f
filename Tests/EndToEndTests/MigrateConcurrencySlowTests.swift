import CellarKit
import Glibc
import TestSupport
import Testing

/// Migrations that take a moment each: migration `i` creates `t_i` and fills it with `rows` rows, and
/// logs itself in `applied_log` so a migration run twice would show.
private func writeSlowMigrations(count: Int, rows: Int, in folder: TemporaryDirectory) throws {
    try folder.write(
        "migrations/0001_log.sql", "CREATE TABLE applied_log (version INTEGER);\nINSERT INTO applied_log VALUES (1);\n")
    for index in 2...count {
        try folder.write(
            "migrations/\(WallClock.pad(index, to: 4))_t\(index).sql",
            """
            CREATE TABLE t_\(index) (n INTEGER, payload TEXT);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < \(rows))
            INSERT INTO t_\(index) SELECT i, hex(randomblob(16)) FROM c;
            CREATE INDEX t_\(index)_by_payload ON t_\(index) (payload);
            INSERT INTO applied_log VALUES (\(index));

            """)
    }
}

@Suite(.serialized) struct MigrateConcurrencySlowTests {
    @Test func fourProcessesStartedTogetherApplyEachMigrationOnce() throws {
        let folder = TemporaryDirectory()
        try writeSlowMigrations(count: 6, rows: 20_000, in: folder)
        let processes = try (0..<4).map { _ in try Cellar.start(["migrate", "--busy-timeout", "30000"], in: folder.path) }
        let results = try processes.map { try $0.wait(timeout: 120) }
        for result in results { #expect(result.status == 0, "\(result)") }
        let database = try Database(path: folder.file("cellar.sqlite"))
        #expect(
            try database.scalar("SELECT group_concat(version) FROM (SELECT version FROM applied_log ORDER BY version)")
                == .text("1,2,3,4,5,6"))
        #expect(try database.scalar("SELECT count(*) FROM cellar_migrations") == .integer(6))
        let applyingRuns = results.filter { $0.output.hasPrefix("applied ") }
        #expect(!applyingRuns.isEmpty)
    }

    @Test func killedAtRandomMomentsLedgerAndSchemaAlwaysAgree() throws {
        let rows = 30_000
        let calibration = TemporaryDirectory()
        try writeSlowMigrations(count: 6, rows: rows, in: calibration)
        let start = ChildProcess.now()
        #expect(try Cellar.run(["migrate", "-q"], in: calibration.path).status == 0)
        let fullRun = ChildProcess.now() - start
        var generator = SystemRandomNumberGenerator()
        var ledgerSizes: [Int] = []
        for _ in 0..<20 {
            let folder = TemporaryDirectory()
            try writeSlowMigrations(count: 6, rows: rows, in: folder)
            let child = try Cellar.start(["migrate", "-q"], in: folder.path)
            usleep(UInt32(Double.random(in: 0...(fullRun * 1.1), using: &generator) * 1_000_000))
            child.send(SIGKILL)
            _ = try child.wait(timeout: 60)
            let size = try checkAgreement(folder.file("cellar.sqlite"), rows: rows)
            ledgerSizes.append(size)
            let rerun = try Cellar.run(["migrate", "-q"], in: folder.path)
            #expect(rerun.status == 0, "\(rerun)")
            #expect(try checkAgreement(folder.file("cellar.sqlite"), rows: rows) == 6)
        }
        #expect(ledgerSizes.count == 20)
    }

    /// Checks that the objects present are exactly those of the first k migrations, k being the ledger
    /// size, with all their rows; returns k.
    private func checkAgreement(_ path: String, rows: Int) throws -> Int {
        guard FileBytes.exists(path) else { return 0 }
        let database = try Database(path: path)
        let tables = try tableNames(path).filter { $0 != "cellar_migrations" && $0 != "cellar_seeds" }
        let versions = try Migrator(database: database, migrations: []).applied().map(\.version)
        let count = versions.count
        #expect(versions == (0..<count).map { Int64($0 + 1) })
        let expected = count == 0 ? [] : (["applied_log"] + (1..<count).map { "t_\($0 + 1)" }).sorted()
        #expect(tables == expected, "ledger \(versions), tables \(tables)")
        for table in tables where table != "applied_log" {
            #expect(try database.scalar("SELECT count(*) FROM \(table)") == .integer(Int64(rows)))
        }
        #expect(try database.scalar("PRAGMA integrity_check") == .text("ok"))
        return count
    }
}
