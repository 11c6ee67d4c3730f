import CellarKit
import Glibc
import TestSupport
import Testing

/// Issue 27 L2: SIGINT or SIGTERM during `restore` rolls the copy back, says so and exits 130 or 143,
/// as `blob put` does (it used to die silently beside a hot journal).
@Suite(.serialized) struct RestoreSignalSlowTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalDuringTheCopyRollsItBack(signal: Int32, status: Int32) throws {
        let folder = TemporaryDirectory()
        // Big enough that the copy takes many steps: the signal lands while the journal exists.
        try Database(path: folder.file("big.bak")).execute(
            """
            CREATE TABLE filled (x);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 300000)
            INSERT INTO filled SELECT randomblob(400) FROM c;
            """)
        try Database(path: folder.file("t.db")).execute("CREATE TABLE kept (x); INSERT INTO kept VALUES (1)")
        let before = try DatabaseFingerprint.lines(of: folder.file("t.db"))
        let child = try Cellar.start(["restore", "big.bak", "-d", "t.db"], in: folder.path)
        try Poll.until("the copy to start (its journal)", timeout: 60) { FileBytes.exists(folder.file("t.db-journal")) }
        child.send(signal)
        let result = try child.wait(timeout: 60)
        #expect(result.status == status, "\(result)")
        #expect(result.error.contains("interrupted; the restore was rolled back: 't.db' is unchanged"), "\(result)")
        #expect(!FileBytes.exists(folder.file("t.db-journal")), "a hot journal was left: \(result)")
        #expect(try DatabaseFingerprint.lines(of: folder.file("t.db")) == before)
    }
}
