import CellarKit
import Glibc
import TestSupport
import Testing

/// Issue 27 M6: every "database is locked" names the database and the busy timeout. An exclusive lock
/// held by another connection (in this process: SQLite's locks between connections of one process are
/// its own, not POSIX's) makes even reading the schema fail.
@Suite struct LockMessageTests {
    @Test(arguments: [
        ["migrate"], ["setup"], ["status"], ["verify"], ["query", "SELECT 1"], ["rollback"], ["seed"], ["schema"],
    ])
    func aLockedDatabaseIsNamedWithTheBusyTimeout(command: [String]) throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n")
        try folder.write("seeds/0001_s.sql", "INSERT INTO a VALUES (1);\n")
        let database = folder.file("app.sqlite")
        #expect(InProcessRun(["migrate", "-m", folder.file("migrations"), "-d", database]).status == 0)
        let holder = try Database(path: database)
        try holder.execute("BEGIN EXCLUSIVE; INSERT INTO a VALUES (2);")
        defer { try? holder.execute("ROLLBACK") }
        let run = InProcessRun(
            command + ["-m", folder.file("migrations"), "--seeds", folder.file("seeds"), "-d", database, "--busy-timeout", "0"])
        #expect(run.status == 1, "\(run)")
        #expect(run.error.contains("database '\(database)' is locked by another connection (gave up after 0 ms)"), "\(run)")
        #expect(!run.error.contains(": database is locked"), "\(run)")
    }
}
