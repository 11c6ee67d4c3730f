import CellarKit
import Glibc
import Synchronization
import TestSupport
import Testing

/// `Database.backup(toFile:permissions:)`: the file being written is never more readable than the
/// database, and two backups running at once never share a file.
@Suite struct BackupFileTests {
    private static func mode(_ path: String) -> UInt32? {
        var status = stat()
        return stat(path, &status) == 0 ? UInt32(status.st_mode) & 0o7777 : nil
    }

    private static func partialFiles(in folder: String) throws -> [String] {
        try DirectoryListing.fileNames(in: folder).filter { $0.contains(".partial-") }
    }

    /// The failing case of the report: the partial copy was created 0644 by SQLite and chmodded only at
    /// the end, so another user could read a private database while it was copied.
    @Test func thePartialCopyHasTheFinalModeWhileItIsWritten() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("app.sqlite")
        try Database(path: path).execute("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        // The copy waits for its read lock on the source while another connection holds it exclusively.
        let holder = try Database(path: folder.file("app.sqlite"))
        try holder.execute("BEGIN EXCLUSIVE; INSERT INTO t VALUES (2);")
        let target = folder.file("app.sqlite.bak")
        let failure = Mutex<String?>(nil)
        let copier = BackgroundThread {
            do {
                let source = try Database(path: path, options: .init(mode: .readWrite, busyTimeout: 10_000))
                try source.backup(toFile: target, permissions: 0o600)
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        copier.start()
        var partial: String?
        try Poll.until("a partial file while the copy waits", timeout: 10) {
            partial = try Self.partialFiles(in: folder.path).first
            return partial != nil
        }
        if let partial { #expect(Self.mode(folder.file(partial)) == 0o600, "\(partial) is readable by others") }
        try holder.execute("COMMIT")
        copier.join()
        #expect(failure.withLock { $0 } == nil)
        #expect(Self.mode(target) == 0o600)
        #expect(try Database(path: target).scalar("SELECT count(*) FROM t") == .integer(2))
        #expect(try Self.partialFiles(in: folder.path).isEmpty)
    }

    /// Two threads backing the same database up to the same name at once: one gets the name, the other
    /// is told it exists; neither copy is mixed with the other or left behind.
    @Test func concurrentBackupsToOneNameNeitherShareAFileNorReplaceEachOther() throws {
        let folder = TemporaryDirectory()
        try Database(path: folder.file("app.sqlite")).execute("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        let target = folder.file("app.bak")
        let outcomes = Mutex<[String]>([])
        let threads = (0..<4).map { _ in
            BackgroundThread {
                do {
                    let database = try Database(path: folder.file("app.sqlite"))
                    try database.backup(toFile: target, permissions: 0o640)
                    outcomes.withLock { $0.append("ok") }
                } catch let error as SystemError where error.code == EEXIST {
                    outcomes.withLock { $0.append("exists") }
                } catch {
                    outcomes.withLock { $0.append("\(error)") }
                }
            }
        }
        for thread in threads { thread.start() }
        for thread in threads { thread.join() }
        let results = outcomes.withLock { $0 }
        #expect(results.filter { $0 == "ok" }.count == 1 && results.filter { $0 == "exists" }.count == 3, "\(results)")
        #expect(try Database(path: target).scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(Self.mode(target) == 0o640)
        #expect(try Self.partialFiles(in: folder.path).isEmpty)
    }
}
