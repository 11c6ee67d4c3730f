import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

/// `migrate` keeps the rollback journal between its transactions and leaves the database as SQLite
/// leaves it: no journal file afterwards, the default mode for the next connection, and a mode a
/// migration chose (WAL) kept.
@Suite struct PersistentJournalTests {
    @Test func theJournalIsKeptDuringTheRunAndDeletedAfterIt() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("j.db")
        let database = try Database(path: path)
        let modeDuring = try PersistentJournal.during(database) { () -> Value? in
            try database.execute("CREATE TABLE t (x)")
            try database.execute("INSERT INTO t VALUES (1)")
            #expect(FileBytes.exists(path + "-journal"), "the journal was deleted after a commit")
            return try database.scalar("PRAGMA journal_mode")
        }
        #expect(modeDuring == .text("persist"))
        #expect(try database.scalar("PRAGMA journal_mode") == .text("delete"))
        #expect(!FileBytes.exists(path + "-journal"))
    }

    @Test func theJournalIsDeletedAfterAFailure() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("f.db")
        let database = try Database(path: path)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try PersistentJournal.during(database) {
                try database.execute("CREATE TABLE t (x)")
                throw Stop()
            }
        }
        #expect(!FileBytes.exists(path + "-journal"))
        #expect(try database.scalar("PRAGMA journal_mode") == .text("delete"))
    }

    /// A signal reaches every connection of a fleet at once, and may interrupt the switch back to
    /// `DELETE` itself: the switch is tried again and the journal still goes.
    @Test func aSwitchBackThatIsInterruptedOnceStillDeletesTheJournal() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("i.db")
        let database = try Database(path: path)
        final class Arming: @unchecked Sendable { var isArmed = false, interruptions = 0 }
        let arming = Arming()
        try database.setProgressHandler(every: 1) {
            guard arming.isArmed else { return false }
            arming.isArmed = false
            arming.interruptions += 1
            return true
        }
        try PersistentJournal.during(database) {
            try database.execute("CREATE TABLE t (x)")
            #expect(FileBytes.exists(path + "-journal"))
            arming.isArmed = true
        }
        try database.setProgressHandler(every: 1, nil)
        #expect(arming.interruptions == 1, "the switch back ran no instruction to interrupt")
        #expect(!FileBytes.exists(path + "-journal"))
        #expect(try database.scalar("PRAGMA journal_mode") == .text("delete"))
    }

    @Test func aWALDatabaseIsLeftInWAL() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("w.db")
        let database = try Database(path: path)
        try database.execute("PRAGMA journal_mode = WAL")
        let modeDuring = try PersistentJournal.during(database) { try database.scalar("PRAGMA journal_mode") }
        #expect(modeDuring == .text("wal"))
        #expect(try database.scalar("PRAGMA journal_mode") == .text("wal"))
    }

    @Test func aMigrationThatTurnsOnWALKeepsIt() throws {
        let project = try CLIProject([
            "0001_a.sql": "CREATE TABLE a (x);\n",
            "0002_wal.sql": "-- migrate:up transaction:false\nPRAGMA journal_mode = WAL;\n",
            "0003_b.sql": "CREATE TABLE b (y);\n",
        ])
        let run = project.run(["migrate"])
        #expect(run.status == 0, "\(run.error)")
        #expect(try project.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try project.scalar("SELECT count(*) FROM cellar_migrations") == .integer(3))
    }

    @Test func aMigratedDatabaseHasNoJournalLeft() throws {
        let project = try CLIProject(["0001_a.sql": "CREATE TABLE a (x);\n", "0002_b.sql": "CREATE TABLE b (y);\n"])
        #expect(project.run(["migrate"]).status == 0)
        #expect(!FileBytes.exists(project.databasePath + "-journal"))
        #expect(try project.scalar("PRAGMA journal_mode") == .text("delete"))
    }
}
