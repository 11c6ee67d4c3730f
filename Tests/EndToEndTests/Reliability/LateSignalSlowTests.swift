import CellarKit
import Glibc
import TestSupport
import Testing

/// Issue 15 H7 and M6: after SIGINT/SIGTERM cellar reports what really happened — the version the
/// ledger holds, and a commit that went through as committed.
@Suite(.serialized) struct LateSignalSlowTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func theNoteAfterAStoppedMigrateNamesTheRealVersion(signal: Int32, status: Int32) throws {
        let project = ReliabilityProject(count: 12, rows: 150_000)
        let folder = TemporaryDirectory()
        try project.write(into: folder)
        let child = try Cellar.start(["migrate"], in: folder.path)
        // Stop it once at least two migrations are applied, so that "version 0" would be wrong.
        try Poll.until("two migrations applied", timeout: 60) {
            ReliabilityProject.appliedCount(at: folder.file("cellar.sqlite")) >= 2
        }
        child.send(signal)
        let result = try child.wait(timeout: 60)
        #expect(result.status == status, "\(result)")
        let k = try ConsistencyChecker(project: project).check(folder.file("cellar.sqlite"))
        #expect(k >= 2)
        #expect(result.error.contains("the database is still at version \(k)"), "ledger at \(k): \(result)")
    }

    /// The script's COMMIT writes a large cache of dirty pages, so a signal sent as soon as its last
    /// statement has run lands while COMMIT is writing.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalDuringCommitIsReportedAsWhatHappened(signal: Int32, status: Int32) throws {
        let folder = TemporaryDirectory()
        try folder.write(
            "big.sql",
            """
            PRAGMA cache_size = -400000;
            CREATE TABLE filled (x);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 400000)
            INSERT INTO filled SELECT randomblob(200) FROM c;
            SELECT writefile('\(folder.file("ready"))', 'ready');

            """)
        let child = try Cellar.start(["run", "big.sql", "-d", "r.db"], in: folder.path)
        try Poll.until("the script's last statement", timeout: 60) { FileBytes.exists(folder.file("ready")) }
        child.send(signal)
        let result = try child.wait(timeout: 60)
        let database = try Database(path: folder.file("r.db"))
        let committed = try database.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'filled'") == .integer(1)
        if committed {
            #expect(result.status == 0, "committed, yet: \(result)")
            #expect(!result.error.contains("big.sql rolled back"), "\(result)")
            #expect(result.error.contains("after the work was committed"), "\(result)")
        } else {
            #expect(result.status == status, "\(result)")
            #expect(result.error.contains("big.sql rolled back"), "\(result)")
        }
    }

    /// Issue 27 L3: a signal in the last moments of `run` — after its handler for the script was gone —
    /// ended the process with 130 and no word, though the script had committed. Signals sent at spread
    /// moments around the end: a committed script always exits 0, a stopped one always says why.
    @Test func aSignalAtTheVeryEndOfRunNeverReportsACommittedScriptAsFailed() throws {
        let folder = TemporaryDirectory()
        for attempt in 0..<40 {
            let database = folder.file("r\(attempt).db")
            let ready = folder.file("ready\(attempt)")
            try folder.write(
                "s\(attempt).sql",
                "CREATE TABLE done (x);\nINSERT INTO done VALUES (1);\nSELECT writefile('\(ready)', 'ready');\n")
            let child = try Cellar.start(["run", "s\(attempt).sql", "-d", database, "-q"], in: folder.path)
            try Poll.until("attempt \(attempt)'s script to run", timeout: 30) { FileBytes.exists(ready) }
            usleep(useconds_t(attempt % 20) * 500)
            child.send(SIGINT)
            let result = try child.wait(timeout: 30)
            let committed =
                try Database(path: database).scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'done'") == .integer(1)
            if committed {
                #expect(result.status == 0, "attempt \(attempt): committed, yet \(result)")
            } else {
                #expect(result.status == 130 && !result.error.isEmpty, "attempt \(attempt): \(result)")
            }
        }
    }
}
