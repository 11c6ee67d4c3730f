import CellarKit
import Glibc
import TestSupport
import Testing

@testable import CellarCLI

/// `.archive` against sqlite3 3.40's: the same tree archived by both gives the same rows (the same
/// zlib bytes), each lists and extracts what the other made, and `-u`, `-r`, `-g` and the errors
/// agree. Folder trees get fixed times so that `-tv` compares byte for byte.
@Suite struct SQLite3ArchiveComparisonTests {
    let folder = TemporaryDirectory()

    /// A tree under `src/d`: a small file (stored as it is), a large one (compressed), an empty one,
    /// a subfolder, modes 0640 and 0755; and, with `withLink`, a symbolic link.
    init() throws {
        try makeTree(withLink: false)
    }

    private func makeTree(withLink: Bool) throws {
        let root = folder.file("src")
        for path in [root, root + "/d", root + "/d/sub"] { mkdir(path, 0o755) }
        try FileBytes.write(Array("hello\n".utf8), to: root + "/d/a.txt")
        try FileBytes.write(Array(String(repeating: "compress me ", count: 500).utf8), to: root + "/d/sub/big.txt")
        try FileBytes.write([], to: root + "/d/empty")
        chmod(root + "/d/a.txt", 0o640)
        chmod(root + "/d/sub/big.txt", 0o755)
        if withLink { symlink("a.txt", root + "/d/link") }
        for path in ["d/a.txt", "d/sub/big.txt", "d/empty", "d/sub", "d"] + (withLink ? ["d/link"] : []) {
            var times = [timespec(tv_sec: 1_704_164_645, tv_nsec: 0), timespec(tv_sec: 1_704_164_645, tv_nsec: 0)]
            utimensat(AT_FDCWD, root + "/" + path, &times, AT_SYMLINK_NOFOLLOW)
        }
    }

    private func sqlite3(_ database: String, _ commands: String...) throws -> ChildProcess.Result {
        try Shell.run("/usr/bin/sqlite3", [folder.file(database)] + commands, environment: ["HOME": folder.path])
    }

    private func cellar(_ database: String, _ commands: String...) -> InProcessRun {
        InProcessRun(["shell", folder.file(database)] + commands, environment: ["HOME": folder.path])
    }

    /// Every row of an archive, the data as hex: what both programs must have written alike.
    private func rows(_ database: String) throws -> String {
        try sqlite3(database, "SELECT name, mode, mtime, sz, typeof(data), hex(data) FROM sqlar").output
    }

    /// Every file under `path` with its type, mode, time and content, as `find` describes them.
    private func tree(_ path: String) throws -> String {
        try Shell.run(
            "/bin/sh",
            ["-c", "cd '\(path)' && find . -mindepth 1 -printf '%p %y %m %T@ %s %l\\n' | sort && cat $(find . -type f | sort)"]
        )
        .output
    }

    @Test func bothWriteTheSameRowsAndListEachOthersArchives() throws {
        let source = folder.file("src")
        let reference = try sqlite3("s.sqlar", ".ar -cv -C \(source) d")
        let run = cellar("c.sqlar", ".ar -cv -C \(source) d")
        #expect(run.output == reference.output, "\(run)")
        #expect(run.status == 0 && reference.status == 0, "\(run)\n\(reference)")
        #expect(try rows("c.sqlar") == rows("s.sqlar"))
        #expect(try rows("c.sqlar").contains("|blob|78"), "the large file is zlib-compressed")
        #expect(try sqlite3("c.sqlar", ".schema").output == sqlite3("s.sqlar", ".schema").output)
        for listing in [".ar -t", ".ar -tv", ".ar --list --verbose d/sub", ".ar tv", ".ar -t d/a.txt d/sub/", ".ar --lis"] {
            let expected = try sqlite3("s.sqlar", listing)
            #expect(cellar("s.sqlar", listing).output == expected.output, "\(listing)")
            #expect(try sqlite3("c.sqlar", listing).output == expected.output, "\(listing)")
        }
    }

    @Test func eachExtractsWhatTheOtherArchived() throws {
        let source = folder.file("src")
        #expect(cellar("c.sqlar", ".ar -c -C \(source) d").status == 0)
        #expect(try sqlite3("s.sqlar", ".ar -c -C \(source) d").status == 0)
        mkdir(folder.file("by-sqlite3"), 0o755)
        mkdir(folder.file("by-cellar"), 0o755)
        let reference = try sqlite3("c.sqlar", "-A", "-xv", "-C", folder.file("by-sqlite3"))
        let run = cellar("s.sqlar", ".ar -xv -C \(folder.file("by-cellar"))")
        #expect(reference.status == 0, "\(reference)")
        #expect(run.status == 0, "\(run)")
        #expect(run.output == reference.output.replacing("by-sqlite3", with: "by-cellar"))
        let extracted = try tree(folder.file("by-cellar"))
        #expect(extracted == (try tree(source)))
        #expect(extracted == (try tree(folder.file("by-sqlite3"))))
        #expect(extracted.contains("./d/a.txt f 640 1704164645.0000000000 6"), "\(extracted)")
    }

    /// `-u` stores only what changed (by mode and mtime), `-i` everything, `-r` takes entries out.
    @Test func updateInsertAndRemoveAsSqlite3() throws {
        let source = folder.file("src")
        for database in ["s.sqlar", "c.sqlar"] { #expect(try sqlite3(database, ".ar -c -C \(source) d").status == 0) }
        try FileBytes.write(Array("changed\n".utf8), to: source + "/d/a.txt")
        try FileBytes.write(Array("new\n".utf8), to: source + "/d/new.txt")
        for command in [".ar -uv -C \(source) d", ".ar -iv -C \(source) d/sub", ".ar -rv d/sub", ".ar -tv", ".ar -rg d/*.txt"] {
            let reference = try sqlite3("s.sqlar", command)
            let run = cellar("c.sqlar", command)
            #expect(run.output == reference.output, "\(command)\n\(run)")
            #expect((run.status == 0) == (reference.status == 0), "\(command)\n\(run)\n\(reference)")
        }
        #expect(try rows("c.sqlar") == rows("s.sqlar"))
    }

    /// What sqlite3 refuses, cellar refuses (standard output the same, both failing).
    @Test(arguments: [
        ".ar", ".ar -z", ".ar -tv nope", ".ar -x nope", ".ar -ct", ".ar -f", ".ar --bogus", ".ar -c -C nowhere x",
        ".ar -tf missing.sqlar",
    ])
    func errorsAsSqlite3(_ command: String) throws {
        let source = folder.file("src")
        for database in ["s.sqlar", "c.sqlar"] { #expect(try sqlite3(database, ".ar -c -C \(source) d").status == 0) }
        let reference = try sqlite3("s.sqlar", command)
        let run = cellar("c.sqlar", command)
        #expect(run.output == reference.output, "\(run)")
        #expect((run.status == 0) == (reference.status == 0), "\(command)\n\(run)\n\(reference)")
        #expect(!run.error.isEmpty)
    }

    /// A symbolic link is stored as sqlite3 stores it (its target, sz -1), and cellar extracts it
    /// (sqlite3 3.40 fails with "error in uncompress()": a documented difference).
    @Test func aSymbolicLinkIsStoredAsSqlite3StoresItAndExtracted() throws {
        try makeTree(withLink: true)
        let source = folder.file("src")
        #expect(cellar("c.sqlar", ".ar -c -C \(source) d").status == 0)
        #expect(try sqlite3("s.sqlar", ".ar -c -C \(source) d").status == 0)
        #expect(try rows("c.sqlar") == rows("s.sqlar"))
        mkdir(folder.file("out"), 0o755)
        let run = cellar("c.sqlar", ".ar -x -C \(folder.file("out"))")
        #expect(run.status == 0, "\(run)")
        #expect(try tree(folder.file("out")) == tree(source))
    }

    /// Extraction writes nowhere outside its folder: a name with `..` is skipped (as sqlite3 does), an
    /// absolute name is refused, and nothing is written through a symbolic link.
    @Test func extractionStaysInItsFolder() throws {
        let archive = try Database(path: folder.file("evil.sqlar"))
        try archive.execute(ShellSession.archiveTable)
        try archive.execute(
            "INSERT INTO sqlar VALUES ('../escaped', 33188, 0, 1, x'41'), ('ok', 33188, 0, 1, x'42'),"
                + " ('link', 41471, 0, -1, '\(folder.path)'), ('link/through', 33188, 0, 1, x'43')")
        mkdir(folder.file("out"), 0o755)
        let run = cellar("evil.sqlar", ".ar -xv -C \(folder.file("out"))")
        #expect(run.status == 1, "\(run)")
        #expect(run.error.contains("out/link' is a symbolic link"), "\(run)")
        #expect(access(folder.file("escaped"), F_OK) != 0)
        #expect(access(folder.file("through"), F_OK) != 0)
        #expect(access(folder.file("out/ok"), F_OK) == 0)
        try archive.execute("DELETE FROM sqlar; INSERT INTO sqlar VALUES ('/tmp/absolute-\(getpid())', 33188, 0, 1, x'41')")
        let absolute = cellar("evil.sqlar", ".ar -x")
        #expect(absolute.status == 1)
        #expect(absolute.error.contains("absolute name"), "\(absolute)")
        #expect(access("/tmp/absolute-\(getpid())", F_OK) != 0)
    }

    /// `--safe` refuses it: it reads and writes files.
    @Test func safeModeRefusesArchives() {
        let run = InProcessRun(["shell", "--safe", folder.file("c.sqlar"), ".ar -c -C \(folder.file("src")) d"])
        #expect(run.status == 1)
        #expect(run.error.contains(".archive is not allowed with --safe"), "\(run)")
        #expect(access(folder.file("c.sqlar"), F_OK) != 0 || (try? rows("c.sqlar")) == "")
    }
}
