import CellarKit
import Glibc
import TestSupport
import Testing

/// `cellar restore`, in-process: a new database takes the backup's mode, and a backup that is the
/// database itself is refused at once.
@Suite struct RestoreCommandTests {
    private static func backup(in folder: TemporaryDirectory, mode: mode_t) throws -> String {
        let path = folder.file("private.bak")
        try Database(path: path).execute("CREATE TABLE secret (x); INSERT INTO secret VALUES ('pin 1234')")
        chmod(path, mode)
        return path
    }

    private static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    /// The failing case of the report: a 0600 backup restored onto a missing path made a 0644 database.
    @Test(arguments: [mode_t(0o600), 0o640])
    func aNewDatabaseTakesTheBackupsMode(mode: mode_t) throws {
        let folder = TemporaryDirectory()
        let backup = try Self.backup(in: folder, mode: mode)
        let target = folder.file("restored.sqlite")
        let run = InProcessRun(["restore", backup, "-d", target])
        #expect(run.status == 0, "\(run)")
        #expect(Self.mode(target) == mode)
        #expect(try Database(path: target).scalar("SELECT x FROM secret") == .text("pin 1234"))
    }

    /// It waited the whole busy timeout, then blamed "another connection" (its own read of FILE).
    @Test func aBackupThatIsTheDatabaseItselfIsRefusedAtOnce() throws {
        let folder = TemporaryDirectory()
        let database = try Self.backup(in: folder, mode: 0o644)
        #expect(symlink(database, folder.file("link.bak")) == 0)
        let before = try FileBytes.read(database)
        for file in [database, folder.file("link.bak"), folder.path + "/./private.bak"] {
            let run = InProcessRun(["restore", file, "-d", database, "--busy-timeout", "5000"])
            #expect(run.status == 1, "\(run)")
            #expect(
                run.error
                    == "cellar: error: '\(file)' is the database '\(database)' itself; there is nothing to restore and "
                    + "nothing was changed\n", "\(run)")
        }
        #expect(try FileBytes.read(database) == before)
    }
}
