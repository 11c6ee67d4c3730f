import CellarKit
import Glibc
import TestSupport
import Testing

/// `cellar migrate` killed at random moments, and deploys racing on one database: the database always
/// passes the shared consistency check and a rerun completes.
@Suite(.serialized) struct CrashAndRaceSlowTests {
    private let project = ReliabilityProject(count: 50, rows: 300)

    private func freshFolder(journal: String) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try project.write(into: folder)
        try Database(path: folder.file("cellar.sqlite")).execute("PRAGMA journal_mode = \(journal)")
        return folder
    }

    @Test(arguments: ["DELETE", "WAL"])
    func sigkillAtRandomMomentsNeverLeavesAnInconsistentDatabase(journal: String) throws {
        let checker = ConsistencyChecker(project: project)
        let calibration = try freshFolder(journal: journal)
        let start = ChildProcess.now()
        let full = try Cellar.run(["migrate", "-q"], in: calibration.path)
        #expect(full.status == 0, "\(full)")
        let duration = ChildProcess.now() - start
        var generator = SeededGenerator(seed: journal == "WAL" ? 0x5EED : 0xD1E)
        let trials = Soak.count(suite: 25, soak: 500)
        var stops: Set<Int> = []
        var inconsistencies: [String] = []
        for trial in 0..<trials {
            let folder = try freshFolder(journal: journal)
            let child = try Cellar.start(["migrate", "-q"], in: folder.path)
            usleep(UInt32(Double.random(in: 0...duration, using: &generator) * 1_000_000))
            child.send(SIGKILL)
            _ = try child.wait(timeout: 60)
            do {
                stops.insert(try checker.check(folder.file("cellar.sqlite")))
                let rerun = try Cellar.run(["migrate", "-q"], in: folder.path)
                guard rerun.status == 0 else { throw ConsistencyChecker.Failure(description: "rerun: \(rerun)") }
                guard try checker.check(folder.file("cellar.sqlite")) == project.count else {
                    throw ConsistencyChecker.Failure(description: "rerun left the ledger short")
                }
            } catch {
                inconsistencies.append("trial \(trial): \(error)")
            }
        }
        print(
            "reliability: SIGKILL during migrate, \(journal) journal: \(trials) trials, killed at \(stops.count) distinct versions, \(inconsistencies.count) inconsistent"
        )
        #expect(inconsistencies.isEmpty, "\(inconsistencies)")
        #expect(stops.count > 3, "kills landed at too few places: \(stops.sorted())")
    }

    @Test func eightRacingDeploysApplyEachMigrationOnce() throws {
        let checker = ConsistencyChecker(project: project)
        let rounds = Soak.count(suite: 3, soak: 100)
        for round in 0..<rounds {
            let folder = try freshFolder(journal: round % 2 == 0 ? "DELETE" : "WAL")
            let children = try (0..<8).map { _ in try Cellar.start(["migrate", "-q", "--busy-timeout", "60000"], in: folder.path)
            }
            let results = try children.map { try $0.wait(timeout: 300) }
            for result in results { #expect(result.status == 0, "round \(round): \(result)") }
            #expect(try checker.check(folder.file("cellar.sqlite")) == project.count)
        }
        print("reliability: 8 racing deploys × \(rounds) rounds, every migration applied once")
    }
}
