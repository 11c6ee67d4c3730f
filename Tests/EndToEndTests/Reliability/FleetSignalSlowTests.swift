import CellarKit
import Glibc
import TestSupport
import Testing

/// Stopping a fleet run: SIGKILL leaves every database at a consistent version and a rerun finishes
/// the fleet; SIGINT and SIGTERM roll back the migration in flight in each worker and report what
/// was done.
@Suite struct FleetSignalSlowTests {
    static let project = ReliabilityProject(count: 12, rows: 40_000)
    static let databases = (1...8).map { "fleet/db\($0).sqlite" }

    static func start() throws -> (TemporaryDirectory, ChildProcess) {
        let folder = TemporaryDirectory()
        try project.write(into: folder)
        TemporaryDirectory.makeFolders(folder.file("fleet"))
        for name in databases { try Database(path: folder.file(name)).execute("PRAGMA user_version = 0") }
        let child = try Cellar.start(["migrate", "-d", "fleet/*.sqlite", "--jobs", "2"], in: folder.path)
        // Ready once the first database is done: the others are in flight or not started.
        try Poll.until("the first database applied", timeout: 120) { child.outputSoFar().contains(": applied") }
        return (folder, child)
    }

    /// Every database's version after checking it holds exactly what its ledger says.
    static func versions(in folder: TemporaryDirectory) throws -> [Int] {
        let checker = ConsistencyChecker(project: project)
        return try databases.map { try checker.check(folder.file($0)) }
    }

    @Test func sigkillThenRerunFinishesTheFleet() throws {
        let (folder, child) = try Self.start()
        child.send(SIGKILL)
        let killed = try child.wait(timeout: 120)
        #expect(killed.status == 128 + SIGKILL)
        let versions = try Self.versions(in: folder)
        #expect(versions.contains { $0 < Self.project.count }, "the kill came before the end: \(versions)")
        let rerun = try Cellar.run(["migrate", "-d", "fleet/*.sqlite", "--jobs", "2"], in: folder.path, timeout: 300)
        #expect(rerun.status == 0, "\(rerun)")
        let finished = versions.filter { $0 == Self.project.count }.count
        #expect(rerun.output.hasSuffix("8 databases: \(8 - finished) migrated, \(finished) already current, 0 failed\n"))
        #expect(try Self.versions(in: folder) == Array(repeating: Self.project.count, count: 8))
    }

    @Test(arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")])
    func aSignalRollsBackEachWorkersMigrationAndReportsWhatWasDone(signal: Int32, status: Int32, name: String) throws {
        let (folder, child) = try Self.start()
        child.send(signal)
        let result = try child.wait(timeout: 120)
        #expect(result.status == status, "\(result)")
        #expect(result.output.contains("; stopped by \(name): the databases above are done, no other was started\n"), "\(result)")
        let versions = try Self.versions(in: folder)
        #expect(versions.contains { $0 < Self.project.count })
        for (name, version) in zip(Self.databases, versions) where version == Self.project.count {
            #expect(result.output.contains("\(name): applied"), "a finished database is reported: \(name)")
        }
        for database in Self.databases { #expect(!FileBytes.exists(folder.file(database + "-journal"))) }
    }
}
