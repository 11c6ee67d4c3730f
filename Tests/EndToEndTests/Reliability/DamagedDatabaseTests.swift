import CellarKit
import Glibc
import TestSupport
import Testing

/// Databases cellar cannot or must not write: each a clear one-line error, a non-zero exit, and the
/// file byte for byte as it was.
@Suite struct DamagedDatabaseTests {
    private let project = ReliabilityProject(count: 6, rows: 2_000)

    private func digest(_ path: String) throws -> String {
        SHA256.hexDigest(of: try FileBytes.read(path))
    }

    /// A project migrated to version 3, with the rest pending.
    private func halfMigrated() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try project.write(into: folder)
        #expect(try Cellar.run(["migrate", "-q", "--to", "3"], in: folder.path).status == 0)
        return folder
    }

    @Test func lockedPastTheBusyTimeout() throws {
        let folder = try halfMigrated()
        // Read the file before taking the lock: closing any descriptor of the file in this process
        // would drop the process's POSIX locks on it.
        let before = try digest(folder.file("cellar.sqlite"))
        let holder = try Database(path: folder.file("cellar.sqlite"))
        try holder.execute("BEGIN IMMEDIATE; INSERT INTO applied_log VALUES (99)")
        let result = try Cellar.run(["migrate", "--busy-timeout", "200"], in: folder.path)
        try holder.execute("ROLLBACK")
        #expect(result.status == 1)
        #expect(result.error.contains("locked"), "\(result)")
        #expect(try digest(folder.file("cellar.sqlite")) == before)
        #expect(try ConsistencyChecker(project: project).check(folder.file("cellar.sqlite")) == 3)
    }

    @Test func randomBytesAreNotADatabase() throws {
        let folder = TemporaryDirectory()
        try project.write(into: folder)
        var generator = SeededGenerator(seed: 0xBAD)
        try folder.write("cellar.sqlite", bytes: (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let before = try digest(folder.file("cellar.sqlite"))
        let result = try Cellar.run(["migrate"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.error.contains("not a database"), "\(result)")
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(try digest(folder.file("cellar.sqlite")) == before)
    }

    @Test func databaseTruncatedToHalf() throws {
        let folder = try halfMigrated()
        let path = folder.file("cellar.sqlite")
        let bytes = try FileBytes.read(path)
        try FileBytes.write(Array(bytes.prefix(bytes.count / 2)), to: path)
        let before = try digest(path)
        let result = try Cellar.run(["migrate"], in: folder.path)
        #expect(result.status == 1, "\(result)")
        #expect(result.error.contains("malformed"), "\(result)")
        #expect(try digest(path) == before)
    }

    @Test func leftoverHotJournalIsRolledBackBeforeMigrating() throws {
        let folder = try halfMigrated()
        let path = folder.file("cellar.sqlite")
        // A writer that dies mid-transaction after spilling pages to the file leaves a hot journal.
        let script = """
            PRAGMA cache_size = 2;
            BEGIN;
            UPDATE t_2 SET payload = upper(payload);
            INSERT INTO applied_log VALUES (1000);
            SELECT 'spilled';
            """
        let writer = try ChildProcess("/usr/bin/sqlite3", [path], input: Array((script + "\n.shell sleep 30\n").utf8))
        // Ready once the writer has run every statement and sleeps with its transaction open.
        try Poll.until("the writer to run every statement", timeout: 30) { writer.outputSoFar().contains("spilled") }
        let journalSeen = FileBytes.exists(path + "-journal")
        writer.send(SIGKILL)
        _ = try writer.wait(timeout: 30)
        #expect(journalSeen)
        let result = try Cellar.run(["migrate", "-q"], in: folder.path)
        #expect(result.status == 0, "\(result)")
        let database = try Database(path: path)
        #expect(try database.scalar("SELECT count(*) FROM applied_log WHERE version = 1000") == .integer(0))
        #expect(try ConsistencyChecker(project: project).check(path) == project.count)
    }

    @Test func fullDiskViaMaxPageCountRollsBackCleanly() throws {
        let folder = try halfMigrated()
        let path = folder.file("cellar.sqlite")
        let before = try digest(path)
        try folder.write(
            "migrations/0004_step4.sql",
            """
            PRAGMA max_page_count = 60;
            CREATE TABLE filler (x TEXT);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100000)
            INSERT INTO filler SELECT hex(randomblob(100)) FROM c;
            """)
        let result = try Cellar.run(["migrate", "--to", "4"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.error.contains("database or disk is full"), "\(result)")
        #expect(result.error.contains("still at version 3"), "\(result)")
        #expect(try digest(path) == before)
    }

    @Test func fileSizeLimitFailsTheMigrationAndLeavesThePriorVersion() throws {
        let folder = try halfMigrated()
        let path = folder.file("cellar.sqlite")
        let size = try FileBytes.read(path).count
        let limitBlocks = size / 512 + 8
        // SIGXFSZ ignored, so writes past the limit fail with EFBIG instead of killing cellar.
        let command = "trap '' XFSZ; ulimit -f \(limitBlocks); exec \"$0\" migrate"
        let result = try Shell.run(
            "/bin/sh", ["-c", command, Cellar.executablePath], environment: Cellar.cleanEnvironment, directory: folder.path)
        #expect(result.status == 1, "\(result)")
        #expect(result.error.contains("still at version"), "\(result)")
        let k = try ConsistencyChecker(project: project).check(path)
        #expect(k >= 3 && k < project.count)
        #expect(try Cellar.run(["migrate", "-q"], in: folder.path).status == 0)
    }
}
