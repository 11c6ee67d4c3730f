import CellarKit
import TestSupport
import Testing

/// The fault-injecting VFS itself: a transaction hit by a fault at any write or sync leaves the file
/// either before or after the transaction, never in between.
@Suite struct FaultInjectingVFSTests {
    private static let work = """
        BEGIN IMMEDIATE;
        CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000)
        INSERT INTO t SELECT x, printf('%0500d', x) FROM c;
        CREATE INDEX t_b ON t(b);
        COMMIT;
        """

    /// Runs the work through the VFS with `fault`; returns whether it completed, after checking the
    /// file through the default VFS.
    private func runAndCheck(_ fault: FaultPlan.Fault, journal: String) throws -> (completed: Bool, plan: FaultPlan) {
        let folder = TemporaryDirectory()
        let path = folder.file("f.db")
        try Database(path: path).execute("PRAGMA journal_mode = \(journal); CREATE TABLE seed(x); INSERT INTO seed VALUES (1)")
        let plan = FaultPlan(fault)
        let vfs = try FaultInjectingVFS(plan: plan)
        var completed = true
        do {
            let database = try Database(path: path, options: .init(vfsName: vfs.name))
            do {
                try database.execute(Self.work)
            } catch {
                completed = false
                database.rollbackIfNeeded()
            }
        }
        let check = try Database(path: path)
        #expect(try check.scalar("PRAGMA integrity_check") == .text("ok"))
        let tables = try check.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 't'")
        if tables == .integer(1) {
            #expect(try check.scalar("SELECT count(*) FROM t") == .integer(2000))
        }
        #expect(try check.scalar("SELECT count(*) FROM seed") == .integer(1))
        return (completed && tables == .integer(1), plan)
    }

    @Test(arguments: ["DELETE", "WAL"])
    func countsWritesAndSyncsWhenNothingFails(journal: String) throws {
        let (completed, plan) = try runAndCheck(.none, journal: journal)
        #expect(completed)
        #expect(plan.writes > 10)
        #expect(plan.syncs >= 1)
    }

    @Test(arguments: ["DELETE", "WAL"])
    func everyFailingWriteLeavesTheFileConsistent(journal: String) throws {
        var number = 1
        while number < 10_000 {
            let (completed, plan) = try runAndCheck(.failWrite(number, code: 13), journal: journal)
            if completed, !plan.hasFired { break }
            number += max(1, number / 8)
        }
        #expect(number < 10_000)
    }

    @Test(arguments: ["DELETE", "WAL"])
    func powerLossAtAnyWriteLosesOnlyTheUnfinishedTransaction(journal: String) throws {
        var number = 1
        var losses = 0
        while number < 10_000 {
            let (completed, plan) = try runAndCheck(.powerLoss(atWrite: number), journal: journal)
            if completed, !plan.hasFired { break }
            if plan.hasFired { losses += 1 }
            number += max(1, number / 8)
        }
        #expect(losses > 5)
    }
}
