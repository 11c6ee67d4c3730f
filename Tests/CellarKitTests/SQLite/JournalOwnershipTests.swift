import CellarKit
import Glibc
import TestSupport
import Testing

/// Issue 26: a kept journal (`PERSIST`) that already belongs to its database's owner is not given that
/// owner again at every transaction (SQLite's unix VFS does it twice per transaction when running as
/// root); a journal with any other owner still gets the database's, as SQLite gives it. SQLite calls
/// `fchown` only as root, so the tests that watch it run only as root.
@Suite struct JournalOwnershipTests {
    init() {
        #expect(JournalDirectorySync.install())
    }

    private static let isRoot = geteuid() == 0

    /// A database in a fresh folder, its journal's path, and one committed write per call.
    private struct Journaled {
        let folder = TemporaryDirectory()
        let database: Database
        let path: String
        let journal: String

        init(mode: String) throws {
            path = folder.file("owned.db")
            database = try Database(path: path)
            try database.execute("PRAGMA journal_mode = \(mode)")
            journal = path + "-journal"
        }

        func commit(_ index: Int) throws {
            try database.execute("BEGIN; CREATE TABLE t_\(index) (x); INSERT INTO t_\(index) VALUES (\(index)); COMMIT;")
        }

        func owner(of file: String) -> (uid_t, gid_t)? {
            var status = stat()
            guard stat(file, &status) == 0 else { return nil }
            return (status.st_uid, status.st_gid)
        }
    }

    /// The database changes owner between two transactions: the kept journal, made by root, is given
    /// the new owner at the next one (a version that skipped every call once the journal had been
    /// given an owner left it root's).
    @Test(.enabled(if: isRoot)) func aKeptJournalGetsTheDatabasesNewOwner() throws {
        let kept = try Journaled(mode: "PERSIST")
        try kept.commit(1)
        #expect(kept.owner(of: kept.journal).map { $0 == (0, 0) } == true)
        #expect(chown(kept.path, 4321, 4322) == 0)
        try kept.commit(2)
        #expect(kept.owner(of: kept.journal).map { $0 == (4321, 4322) } == true)
        try kept.commit(3)
        #expect(kept.owner(of: kept.journal).map { $0 == (4321, 4322) } == true)
    }

    /// Someone gives the kept journal another owner between two transactions: the next one gives it the
    /// database's owner back, as SQLite does.
    @Test(.enabled(if: isRoot)) func aJournalGivenAnotherOwnerGetsTheDatabasesBack() throws {
        let kept = try Journaled(mode: "PERSIST")
        try kept.commit(1)
        #expect(chown(kept.journal, 777, 778) == 0)
        try kept.commit(2)
        #expect(kept.owner(of: kept.journal).map { $0 == (0, 0) } == true)
    }

    /// A journal created for a transaction (`DELETE` mode) of a database root does not own belongs to
    /// the database's owner while the transaction runs.
    @Test(.enabled(if: isRoot)) func aNewJournalGetsTheDatabasesOwner() throws {
        let fresh = try Journaled(mode: "DELETE")
        try fresh.commit(1)
        #expect(chown(fresh.path, 4321, 4322) == 0)
        try fresh.database.execute("BEGIN; CREATE TABLE t_2 (x)")
        #expect(fresh.owner(of: fresh.journal).map { $0 == (4321, 4322) } == true)
        try fresh.database.execute("COMMIT")
        #expect(access(fresh.journal, F_OK) != 0)
    }

    /// A kept journal that belongs to its database's owner: the calls that would give it that owner
    /// again are skipped, two per transaction (the hot-journal check's open and the write's), and the
    /// writes land.
    @Test(.enabled(if: isRoot)) func aKeptJournalWithItsOwnerIsLeftAsItIs() throws {
        let kept = try Journaled(mode: "PERSIST")
        try kept.commit(1)
        let before = JournalOwnership.counts
        for index in 2...6 { try kept.commit(index) }
        let after = JournalOwnership.counts
        #expect(after.skipped - before.skipped >= 10, "\(before) → \(after)")
        #expect(kept.owner(of: kept.journal).map { $0 == (0, 0) } == true)
        #expect(try kept.database.scalar("SELECT count(*) FROM sqlite_schema") == .integer(6))
    }
}
