import CellarKit
import Glibc
import TestSupport
import Testing

/// I/O faults injected under the migrator, at every write or sync in turn until the migration gets
/// through: after each, the database is consistent and a plain rerun completes.
@Suite struct MigrationFaultSlowTests {
    private static let sqliteIOError: Int32 = 10
    private static let sqliteFull: Int32 = 13

    private static let faults: [(String, @Sendable (Int) -> FaultPlan.Fault)] = [
        ("write fails with IOERR", { .failWrite($0, code: sqliteIOError) }),
        ("write fails with FULL", { .failWrite($0, code: sqliteFull) }),
        ("sync fails", { .failSync($0, code: sqliteIOError) }),
        ("power loss", { .powerLoss(atWrite: $0) }),
    ]

    @Test(arguments: ["DELETE", "WAL"], 0..<4)
    func everyFaultPointLeavesAConsistentDatabase(journal: String, faultIndex: Int) throws {
        let project = ReliabilityProject(count: Soak.count(suite: 8, soak: 50), rows: 40)
        let checker = ConsistencyChecker(project: project)
        let (name, makeFault) = Self.faults[faultIndex]
        var number = 1
        var firedCount = 0
        var stoppedAt: [Int: Int] = [:]
        var inconsistencies: [String] = []
        while number < 100_000 {
            let folder = TemporaryDirectory(base: "/dev/shm")
            let path = folder.file("f.db")
            try Database(path: path).execute("PRAGMA journal_mode = \(journal)")
            let plan = FaultPlan(makeFault(number))
            let vfs = try FaultInjectingVFS(plan: plan)
            var failed = false
            do {
                let database = try Database(path: path, options: .init(vfsName: vfs.name))
                _ = try Migrator(database: database, source: .files(project.files)).migrate()
            } catch {
                failed = true
            }
            do {
                stoppedAt[try checker.check(path), default: 0] += 1
                _ = try Migrator(database: try Database(path: path), source: .files(project.files)).migrate()
                guard try checker.check(path) == project.count else {
                    throw ConsistencyChecker.Failure(description: "rerun incomplete")
                }
            } catch {
                inconsistencies.append("\(name) at write/sync \(number): \(error)")
            }
            if plan.hasFired { firedCount += 1 }
            if !plan.hasFired {
                #expect(!failed, "\(name): nothing was injected at \(number) yet the migration failed")
                break
            }
            number += 1
        }
        print(
            "reliability: \(name), \(journal) journal: \(firedCount) faults injected, stopped at versions "
                + "\(stoppedAt.keys.sorted()), \(inconsistencies.count) inconsistent")
        #expect(inconsistencies.isEmpty, "\(inconsistencies)")
        #expect(firedCount > 5, "\(name) in \(journal): only \(firedCount) faults fired")
        #expect(stoppedAt.keys.count > 1, "\(name) in \(journal): every fault stopped at the same version \(stoppedAt)")
    }
}
