import CellarKit
import Glibc
import TestSupport
import Testing

/// Issue 26: a journal kept between transactions (`PERSIST`) has its directory synced once, when this
/// process makes its entry durable, instead of at every commit; a journal deleted and created again
/// (by this process or another) is synced again, as SQLite would.
@Suite struct JournalDirectorySyncTests {
    init() {
        #expect(JournalDirectorySync.install())
    }

    /// A database in `PERSIST` mode in a fresh folder, and its journal's path as SQLite names it.
    private struct Persistent {
        let folder = TemporaryDirectory()
        let database: Database
        let journal: String

        init() throws {
            database = try Database(path: folder.file("kept.db"))
            try database.execute("PRAGMA journal_mode = PERSIST")
            journal = folder.file("kept.db-journal")
        }

        /// One write transaction, committed.
        func commit(_ index: Int) throws {
            try database.execute("BEGIN; CREATE TABLE t_\(index) (x); INSERT INTO t_\(index) VALUES (\(index)); COMMIT;")
        }

        var counts: JournalDirectorySync.Counts { JournalDirectorySync.counts(of: journal) }
    }

    @Test func aKeptJournalHasItsDirectorySyncedOnce() throws {
        let kept = try Persistent()
        for index in 1...5 { try kept.commit(index) }
        #expect(kept.counts == JournalDirectorySync.Counts(synced: 1, skipped: 4))
        #expect(try kept.database.scalar("SELECT count(*) FROM sqlite_schema") == .integer(5))
    }

    /// Another process deleting the journal between two transactions (here `unlink` outside SQLite): the
    /// next journal is a new file whose entry no sync has made durable yet. (A version remembering paths
    /// alone skipped it, synced stayed 1; so did one comparing device and inode without holding the
    /// old file open, in three runs out of three on ext4, which gave the new file the freed inode.)
    @Test func aJournalDeletedOutsideThisProcessIsSyncedAgain() throws {
        let kept = try Persistent()
        try kept.commit(1)
        try kept.commit(2)
        #expect(kept.counts == JournalDirectorySync.Counts(synced: 1, skipped: 1))
        #expect(Glibc.unlink(kept.journal) == 0)
        try kept.commit(3)
        try kept.commit(4)
        #expect(kept.counts == JournalDirectorySync.Counts(synced: 2, skipped: 2))
    }

    /// Another connection in `DELETE` mode commits between two transactions: it deletes the journal at
    /// its commit (through SQLite's "unlink"), so the next one is created, and synced, again.
    @Test func aJournalAnotherConnectionDeletedIsSyncedAgain() throws {
        let kept = try Persistent()
        try kept.commit(1)
        let other = try Database(path: kept.folder.file("kept.db"))
        try other.execute("CREATE TABLE other (x)")
        #expect(access(kept.journal, F_OK) != 0, "the DELETE-mode commit removed the journal")
        try kept.commit(2)
        try kept.commit(3)
        // The other connection wrote the same journal file (its entry durable: skipped), then deleted it.
        #expect(kept.counts == JournalDirectorySync.Counts(synced: 2, skipped: 2))
    }

    /// Switching to `DELETE` and back deletes the journal through SQLite: the next one is synced again.
    @Test func aJournalDeletedBySQLiteIsSyncedAgain() throws {
        let kept = try Persistent()
        try kept.commit(1)
        try kept.database.execute("PRAGMA journal_mode = DELETE")
        try kept.database.execute("PRAGMA journal_mode = PERSIST")
        try kept.commit(2)
        try kept.commit(3)
        #expect(kept.counts == JournalDirectorySync.Counts(synced: 2, skipped: 1))
    }

    /// A journal replaced by another file under the same name between two transactions (deleted, then
    /// created by someone else): the path no longer names the file whose entry was synced.
    @Test func aJournalReplacedUnderItsNameIsSyncedAgain() throws {
        let kept = try Persistent()
        try kept.commit(1)
        #expect(Glibc.unlink(kept.journal) == 0)
        try kept.folder.write("kept.db-journal", "")
        try kept.commit(2)
        try kept.commit(3)
        #expect(kept.counts == JournalDirectorySync.Counts(synced: 2, skipped: 1))
        #expect(try kept.database.scalar("SELECT count(*) FROM sqlite_schema") == .integer(3))
    }

    /// `migrate` (its journal kept for the run, as the command line runs it) of `transaction:false` files
    /// that each hold their own transaction: one directory sync for the whole run, however many commits.
    @Test func migrateSyncsTheJournalsDirectoryOnce() throws {
        var files: [String: String] = [:]
        for index in 1...6 {
            files["\(index)_own.sql"] =
                "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE t_\(index) (x);\nINSERT INTO t_\(index) VALUES (1);\nCOMMIT;\n"
        }
        let project = try MigrationProject(files)
        let database = try project.open()
        _ = try database.duringMigrations { try project.migrator(database).migrate() }
        let counts = JournalDirectorySync.counts(of: project.databasePath + "-journal")
        #expect(counts.synced == 1)
        #expect(counts.skipped >= 5, "\(counts)")
        #expect(try project.versions(database) == [1, 2, 3, 4, 5, 6])
        #expect(access(project.databasePath + "-journal", F_OK) != 0, "the run ends in DELETE mode")
    }
}
