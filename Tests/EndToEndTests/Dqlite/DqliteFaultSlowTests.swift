import Glibc
import TestSupport
import Testing

/// The leader of a real 3-node cluster SIGKILLed in the middle of a deploy, at points a debug build of
/// cellar pauses at (`CELLAR_FAULT_PAUSE`): every migration must end up applied exactly once (each
/// logs itself under a primary key, so a second run would fail), the schema must equal a local file's,
/// and a rerun must do nothing.
@Suite(.serialized, .enabled(if: DqliteCluster.unavailableReason == nil, "\(DqliteCluster.unavailableReason ?? "")"))
struct DqliteFaultSlowTests {
    /// Trials per fault point: 2, or 10 with `CELLAR_SOAK=1`.
    static let trials = getenv("CELLAR_SOAK") == nil ? 2 : 10

    @Test(arguments: ["before:3", "statement:3:2", "commit:3"], 1...trials)
    func aLeaderKilledMidDeployIsSurvived(point: String, trial: Int) throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.loggedMigrations(5)
        let pause = try project.folder.write("pause", "")
        let child = try Cellar.start(
            ["-d", cluster.url("app"), "--busy-timeout", "30000", "migrate"], in: project.folder.path,
            environment: ["CELLAR_FAULT_PAUSE": point, "CELLAR_FAULT_PAUSE_FILE": pause])
        try Poll.until("cellar to reach \(point)", timeout: 60, every: 0.01) { access(pause + ".reached", F_OK) == 0 }
        cluster.kill(try cluster.leaderIndex())
        unlink(pause)
        let result = try child.wait(timeout: 120)
        print("reliability: dqlite leader killed at \(point), trial \(trial): exit \(result.status)")
        #expect(result.status == 0, "\(result)")
        #expect(result.output.hasSuffix("now at version 5\n"), "\(result)")
        #expect(result.error.contains("cellar: lost the dqlite leader ("), "\(result)")
        #expect(result.error.contains("leads now: reading the ledger again before going on"))
        try expectAppliedOnce(cluster, project, versions: 5)
    }

    @Test func eightConcurrentDeploysApplyEachMigrationOnce() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.loggedMigrations(20)
        let children = try (0..<8).map { _ in
            try Cellar.start(["-d", cluster.url("app"), "--busy-timeout", "60000", "migrate"], in: project.folder.path)
        }
        let results = try children.map { try $0.wait(timeout: 180) }
        for result in results { #expect(result.status == 0, "\(result)") }
        let applied = results.map { $0.output }.filter { $0.hasPrefix("applied ") }
        #expect(!applied.isEmpty)
        try expectAppliedOnce(cluster, project, versions: 20)
    }

    /// `runs` holds 1…versions once each, the ledger agrees, the schema is a local file's, and a rerun does nothing.
    private func expectAppliedOnce(_ cluster: DqliteCluster, _ project: DqliteProject, versions: Int) throws {
        let runs = try project.remote(cluster, "app", ["query", "SELECT group_concat(version) FROM runs", "--mode", "list"])
        #expect(runs.output == (1...versions).map(String.init).joined(separator: ",") + "\n", "\(runs)")
        let ledger = try project.remote(cluster, "app", ["query", "SELECT count(*) FROM cellar_migrations", "--mode", "list"])
        #expect(ledger.output == "\(versions)\n")
        #expect(try project.local("reference.sqlite", ["migrate"]).status == 0)
        let remoteSchema = try project.remote(cluster, "app", ["schema"])
        let localSchema = try project.local("reference.sqlite", ["schema"])
        #expect(remoteSchema.status == 0 && remoteSchema.output == localSchema.output)
        let rerun = try project.remote(cluster, "app", ["migrate"])
        #expect(rerun.output == "nothing to apply; the database is at version \(versions)\n", "\(rerun)")
    }
}
