import Glibc
import TestSupport
import Testing

@testable import CellarCLI

@Suite struct HistoryFileTests {
    private func mode(_ path: String) -> mode_t {
        var status = stat()
        lstat(path, &status)
        return status.st_mode & 0o777
    }

    @Test func createsTheFileWithMode0600AndAppendsAsItGoes() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("history")
        let history = try HistoryFile(path: path)
        #expect(mode(path) == 0o600)
        history.append("SELECT 1;")
        #expect(try FileBytes.readText(path) == "SELECT 1;\n")
        history.append("SELECT 1;")
        history.append("SELECT 2;")
        history.append("SELECT 1;")
        #expect(try FileBytes.readText(path) == "SELECT 1;\nSELECT 2;\nSELECT 1;\n")
    }

    @Test func tightensTheModeOfAnExistingFileAndLoadsItsEntries() throws {
        let folder = TemporaryDirectory()
        let path = try folder.write("history", "SELECT 1;\n.tables\n")
        chmod(path, 0o644)
        let history = try HistoryFile(path: path)
        #expect(mode(path) == 0o600)
        #expect(history.loadedEntries == ["SELECT 1;", ".tables"])
        #expect(history.append(".tables") == false)
    }

    @Test func refusesASymbolicLinkAndLeavesItsTargetAlone() throws {
        let folder = TemporaryDirectory()
        let target = try folder.write("target", "secret\n")
        chmod(target, 0o644)
        symlink(target, folder.file("history"))
        #expect {
            try HistoryFile(path: folder.file("history"))
        } throws: { error in
            String(describing: error).contains("is a symbolic link")
        }
        #expect(try FileBytes.readText(target) == "secret\n")
        #expect(mode(target) == 0o644)
    }

    @Test func refusesADirectory() throws {
        let folder = TemporaryDirectory()
        mkdir(folder.file("history"), 0o700)
        #expect(throws: HistoryFile.Failure.self) { try HistoryFile(path: folder.file("history")) }
    }

    @Test func aMultiLineStatementIsOneEntry() {
        #expect(HistoryFile.entry(for: "SELECT *  \nFROM wine\r\nWHERE id = 1;\n") == "SELECT * FROM wine WHERE id = 1;")
    }

    @Test func pathComesFromCellarHistoryThenHome() {
        #expect(HistoryFile.path(in: ["CELLAR_HISTORY": "/x/h", "HOME": "/home/a"]) == "/x/h")
        #expect(HistoryFile.path(in: ["HOME": "/home/a"]) == "/home/a/.cellar_history")
        #expect(HistoryFile.path(in: [:]) == nil)
    }
}
