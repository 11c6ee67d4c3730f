import CellarKit
import Glibc
import TestSupport
import Testing

/// SIGINT and SIGTERM during `cellar blob put|get`: a put leaves the cell's old value in place, a get
/// leaves no file under the target name. The child is caught mid-transfer by polling for a sign that
/// it is there (its rollback journal, its temporary file), never by sleeping.
@Suite struct BlobSignalTests {
    static let original: Value = .blob([0x89, 0x50, 0x4E, 0x47])

    static func makeDatabase(in folder: TemporaryDirectory) throws -> Database {
        let database = try Database(path: folder.file("w.db"))
        try database.execute("CREATE TABLE wine (id INTEGER PRIMARY KEY, label BLOB); INSERT INTO wine VALUES (1, X'89504E47')")
        return database
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalDuringPutLeavesTheOldValue(signal: Int32, status: Int32) throws {
        let folder = TemporaryDirectory()
        _ = try Self.makeDatabase(in: folder)
        let child = try Cellar.start(
            ["blob", "put", "wine", "label", "1", "-", "--size", "10000000", "-d", "w.db"], in: folder.path, pipesInput: true)
        // A megabyte of the ten: the zeroblob is in place (the journal exists) and cellar waits for more.
        try child.feed(PatternBytes.bytes(count: 1 << 20))
        try Poll.until("the journal of the blob put", timeout: 60) { FileBytes.exists(folder.file("w.db-journal")) }
        // The producer stalls and keeps the pipe open: cellar must stop all the same.
        child.send(signal)
        let result = try child.wait(timeout: 60)
        child.closeInput()
        #expect(result.status == status, "\(result)")
        #expect(result.error == "cellar: error: interrupted; wine.label, rowid 1 keeps its old value\n", "\(result)")
        let database = try Database(path: folder.file("w.db"))
        #expect(try database.scalar("SELECT label FROM wine WHERE id = 1") == Self.original)
        #expect(try database.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(!FileBytes.exists(folder.file("w.db-journal")))
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalDuringGetLeavesNoFile(signal: Int32, status: Int32) throws {
        let folder = TemporaryDirectory()
        let database = try Self.makeDatabase(in: folder)
        let input = folder.file("in.bin")
        try PatternBytes.writeFile(count: 64 << 20, to: input)
        try database.writeBlob(table: "wine", column: "label", rowID: 1, from: try OpenFile(input), count: 64 << 20)
        let child = try Cellar.start(["blob", "get", "wine", "label", "1", "out.bin", "-d", "w.db"], in: folder.path)
        let temporaryFiles = { try DirectoryListing.fileNames(in: folder.path).filter { $0.hasPrefix(".out.bin.cellar-") } }
        try Poll.until("the temporary file of the blob get", timeout: 60) { try !temporaryFiles().isEmpty }
        // Stopped while the temporary file fills, the signal is pending when it resumes: cellar's
        // watcher takes it long before 64 MB are copied and synced.
        kill(child.pid, SIGSTOP)
        child.send(signal)
        kill(child.pid, SIGCONT)
        let result = try child.wait(timeout: 60)
        #expect(result.status == status, "\(result)")
        #expect(result.error == "cellar: error: interrupted; nothing was written to out.bin\n", "\(result)")
        #expect(!FileBytes.exists(folder.file("out.bin")))
        #expect(try temporaryFiles().isEmpty)
    }
}
