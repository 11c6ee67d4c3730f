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

    /// A write lock (`BEGIN IMMEDIATE`) held elsewhere lets cellar read the schema, so the lock is met
    /// by a statement: located at it, the message still names the database and the wait.
    @Test(arguments: [
        (["run", "s.sql"], "s.sql: error: cannot begin the script's transaction: "),
        (["run", "--autocommit", "s.sql"], "s.sql:1:1: error: "),
        (["query", "INSERT INTO a VALUES (3)"], "<query>:1:1: error: "),
        (["shell"], "<stdin>:1:1: error: "),
    ])
    func aStatementThatMeetsALockNamesTheDatabaseAndTheBusyTimeout(command: [String], prefix: String) throws {
        let folder = TemporaryDirectory()
        let database = folder.file("app.sqlite")
        try Database(path: database).execute("CREATE TABLE a (x)")
        try folder.write("s.sql", "INSERT INTO a VALUES (2);\n")
        let holder = try Database(path: database)
        try holder.execute("BEGIN IMMEDIATE; INSERT INTO a VALUES (1);")
        defer { try? holder.execute("ROLLBACK") }
        let arguments = command.map { $0 == "s.sql" ? folder.file("s.sql") : $0 }
        let run = InProcessRun(arguments + ["-d", database, "--busy-timeout", "0"], input: "INSERT INTO a VALUES (4);\n")
        #expect(run.status != 0, "\(run)")
        let named = "database '\(database)' (or one attached to it) is locked by another connection (gave up after 0 ms)"
        #expect(run.error.contains((prefix.hasPrefix("s.sql") ? folder.file(prefix) : prefix) + named), "\(run)")
        #expect(!run.error.contains("error: database is locked"), "\(run)")
    }

    /// A migration that attaches a database another connection holds: the located error names the
    /// database and the busy timeout, once, with the advice once.
    @Test func aMigrationThatMeetsALockNamesTheDatabaseAndTheBusyTimeout() throws {
        let folder = TemporaryDirectory()
        let other = folder.file("other.sqlite")
        try folder.write(
            "migrations/0001_a.sql", "-- migrate:up\nATTACH '\(other)' AS o;\nCREATE TABLE o.t (x);\n-- migrate:down\nSELECT 1;\n"
        )
        try Database(path: other).execute("CREATE TABLE held (x)")
        let holder = try Database(path: other)
        try holder.execute("BEGIN EXCLUSIVE; INSERT INTO held VALUES (1);")
        defer { try? holder.execute("ROLLBACK") }
        let database = folder.file("app.sqlite")
        let run = InProcessRun(["migrate", "-m", folder.file("migrations"), "-d", database, "--busy-timeout", "0"])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.error.contains(
                "0001_a.sql:2:1: error: database '\(database)' (or one attached to it) is locked by another connection "
                    + "(gave up after 0 ms)"), "\(run)")
        #expect(run.error.contains("the database is still at version 0"), "\(run)")
        #expect(run.error.ranges(of: "raise it to wait longer").count == 1, "the advice once: \(run)")
    }

    @Test func aBlobPutThatMeetsALockNamesTheDatabaseAndTheBusyTimeout() throws {
        let folder = TemporaryDirectory()
        let database = folder.file("app.sqlite")
        try Database(path: database).execute("CREATE TABLE a (x); INSERT INTO a VALUES (NULL);")
        try folder.write("blob.bin", "12345")
        let holder = try Database(path: database)
        try holder.execute("BEGIN IMMEDIATE; INSERT INTO a VALUES (1);")
        defer { try? holder.execute("ROLLBACK") }
        let run = InProcessRun(["blob", "put", "a", "x", "1", folder.file("blob.bin"), "-d", database, "--busy-timeout", "0"])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.error.contains(
                "a.x, rowid 1: database '\(database)' is locked by another connection (gave up after 0 ms); it keeps its old value"
            ),
            "\(run)")
    }
}
