import CellarKit
import Glibc
import TestSupport
import Testing

/// `migrate --backup`, `setup --backup`, `--backup-dir` and `restore`, with the real binary and a real
/// lock held by another process (this test process).
@Suite struct BackupAndRestoreEndToEndTests {
    static func project() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_w.sql", "CREATE TABLE w (x);\nINSERT INTO w VALUES (1);\n")
        return folder
    }

    static func files(in folder: String) throws -> [String] {
        try DirectoryListing.fileNames(in: folder).sorted()
    }

    @Test func migrateBacksUpOnlyWhenSomethingIsPendingWithTheOriginalsMode() throws {
        let folder = try Self.project()
        #expect(try Cellar.run(["migrate", "-d", "t.db"], in: folder.path).status == 0)
        #expect(chmod(folder.file("t.db"), 0o640) == 0)
        let atVersion1 = try DatabaseFingerprint.lines(of: folder.file("t.db"))
        try folder.write("migrations/0002_v.sql", "CREATE TABLE v (y);\n")
        let migrated = try Cellar.run(["migrate", "--backup", "-d", "t.db"], in: folder.path)
        #expect(migrated.status == 0, "\(migrated)")
        let backups = try Self.files(in: folder.path).filter { $0.hasSuffix(".bak") }
        #expect(backups.count == 1)
        let backup = try #require(backups.first)
        #expect(backup.hasPrefix("t.db.2") && backup.hasSuffix(".v1.bak") && backup.count == "t.db.YYYYMMDDHHMMSS.v1.bak".count)
        #expect(migrated.output.hasPrefix("backup: t.db.2"))
        #expect(try DatabaseFingerprint.lines(of: folder.file(backup)) == atVersion1)
        var status = stat()
        #expect(stat(folder.file(backup), &status) == 0 && status.st_mode & 0o7777 == 0o640)
        let current = try Cellar.run(["migrate", "--backup", "-d", "t.db"], in: folder.path)
        #expect(current.status == 0 && !current.output.contains("backup"))
        #expect(try Self.files(in: folder.path).filter { $0.hasSuffix(".bak") }.count == 1, "nothing pending, no backup")
    }

    @Test func backupDirAndSetupWithOnlySeedsPending() throws {
        let folder = try Self.project()
        try folder.write("seeds/.keep", "")
        #expect(try Cellar.run(["setup", "-d", "t.db"], in: folder.path).status == 0)
        try folder.write("seeds/0001_more.sql", "INSERT INTO w VALUES (2);\n")
        try Shell.run("/bin/mkdir", [folder.file("backups")])
        let setup = try Cellar.run(["setup", "--backup-dir", "backups", "-d", "t.db"], in: folder.path)
        #expect(setup.status == 0, "\(setup)")
        let backups = try Self.files(in: folder.file("backups"))
        #expect(backups.count == 1 && backups[0].hasSuffix(".v1.bak"))
        #expect(try Database(path: folder.file("backups/\(backups[0])")).scalar("SELECT count(*) FROM w") == .integer(1))
        let missingFolder = try Cellar.run(["migrate", "--backup-dir", "nowhere", "-d", "t.db"], in: folder.path)
        #expect(missingFolder.status == 0, "nothing pending: no backup, so no error")
    }

    @Test func restoreBringsTheBackupBack() throws {
        let folder = try Self.project()
        #expect(try Cellar.run(["migrate", "-d", "t.db"], in: folder.path).status == 0)
        try Shell.run("/bin/cp", [folder.file("t.db"), folder.file("saved.db")])
        try Database(path: folder.file("t.db")).execute("DROP TABLE w")
        let restored = try Cellar.run(["restore", "saved.db", "-d", "t.db"], in: folder.path)
        #expect(restored.status == 0, "\(restored)")
        #expect(restored.output == "restored t.db from saved.db; now at version 1\n")
        #expect(try DatabaseFingerprint.lines(of: folder.file("t.db")) == DatabaseFingerprint.lines(of: folder.file("saved.db")))
    }

    @Test func restoreIsRefusedWhileAnotherProcessHoldsTheLock() throws {
        let folder = try Self.project()
        #expect(try Cellar.run(["migrate", "-d", "t.db"], in: folder.path).status == 0)
        try Shell.run("/bin/cp", [folder.file("t.db"), folder.file("saved.db")])
        // No other descriptor of t.db may be opened and closed in this process while the lock is held:
        // closing any descriptor of a file drops the process's POSIX locks on it.
        let holder = try Database(path: folder.file("t.db"))
        try holder.execute("BEGIN IMMEDIATE; INSERT INTO w VALUES (2);")
        let refused = try Cellar.run(["restore", "saved.db", "-d", "t.db", "--busy-timeout", "200"], in: folder.path)
        #expect(refused.status == 1)
        #expect(
            refused.error
                == "cellar: error: database 't.db' is locked by another connection (gave up after 200 ms); nothing was changed; raise --busy-timeout to wait longer\n"
        )
        try holder.execute("COMMIT")
        let after = try Database(path: folder.file("t.db"))
        #expect(try after.scalar("SELECT count(*) FROM w") == .integer(2), "unchanged but for the holder's own row")
        #expect(try after.scalar("PRAGMA integrity_check") == .text("ok"))
    }

    @Test func restoreRefusesAFileThatIsNotASoundDatabase() throws {
        let folder = try Self.project()
        #expect(try Cellar.run(["migrate", "-d", "t.db"], in: folder.path).status == 0)
        let before = try FileBytes.read(folder.file("t.db"))
        try folder.write("notes.txt", "not a database at all, but long enough to have a header of sorts\n")
        let text = try Cellar.run(["restore", "notes.txt", "-d", "t.db"], in: folder.path)
        #expect(text.status == 1)
        #expect(text.error.contains("'notes.txt' is not an SQLite database file (it does not start with SQLite's header"))
        // SQLite opens an empty or very short file as an empty database whose integrity_check is ok.
        for (name, content) in [("empty.bak", ""), ("newline.bak", "\n"), ("short.bak", "SQLite format 3")] {
            try folder.write(name, content)
            let result = try Cellar.run(["restore", name, "-d", "t.db"], in: folder.path)
            #expect(result.status == 1 && result.error.hasSuffix("nothing was changed\n"), "\(name): \(result)")
        }
        var damaged = before
        for index in 4096..<8192 { damaged[index] = 0x55 }
        try folder.write("damaged.db", bytes: damaged)
        let corrupt = try Cellar.run(["restore", "damaged.db", "-d", "t.db"], in: folder.path)
        #expect(corrupt.status == 1)
        #expect(corrupt.error.contains("nothing was changed"))
        let missing = try Cellar.run(["restore", "absent.db", "-d", "t.db"], in: folder.path)
        #expect(missing.status == 1 && missing.error.contains("no backup at 'absent.db'"))
        #expect(try FileBytes.read(folder.file("t.db")) == before)
    }
}
