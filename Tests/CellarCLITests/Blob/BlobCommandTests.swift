import CellarKit
import Glibc
import TestSupport
import Testing

/// `cellar blob put|get`, in-process: round trips, the terminal rule, and every error with the exit
/// status and the database afterwards.
@Suite struct BlobCommandTests {
    static let chunk = BlobHandle.defaultChunkSize
    /// Where the output file's writeback is started (``WritebackPacer``).
    static let stretch = WritebackPacer.defaultStretch
    static let original: Value = .blob([0x89, 0x50, 0x4E, 0x47])

    @Test(arguments: [0, 1, chunk - 1, chunk, chunk + 1, stretch, stretch + 1, 2 * stretch + 1])
    func fileRoundTripIsByteIdentical(size: Int) throws {
        let project = try BlobProject()
        let input = project.folder.file("in.bin")
        try PatternBytes.writeFile(count: size, seed: UInt64(size) + 3, to: input)
        let put = project.run(["blob", "put", "wine", "label", "1", input])
        #expect(put.status == 0, "\(put.error)")
        #expect(put.output == "stored \(ByteSize.text(size)) in wine.label, rowid 1\n")
        let output = project.folder.file("out.bin")
        let get = project.run(["blob", "get", "wine", "label", "1", output])
        #expect(get.status == 0, "\(get.error)")
        #expect(get.output == "wrote \(ByteSize.text(size)) from wine.label, rowid 1 to \(output)\n")
        #expect(try PatternBytes.checksum(ofFile: output) == PatternBytes.checksum(ofFile: input))
        #expect(try project.fileNames() == ["in.bin", "out.bin", "wine.db"])
    }

    @Test(arguments: [0, 1, chunk + 1])
    func standardInputAndOutputRoundTrip(size: Int) throws {
        let project = try BlobProject()
        let bytes = PatternBytes.bytes(count: size, seed: 11)
        // Unknown size: spooled beside the database, and the spool is gone afterwards.
        #expect(project.run(["blob", "put", "wine", "label", "2", "-", "-q"], input: bytes).status == 0)
        #expect(try project.fileNames() == ["wine.db"])
        let get = project.run(["blob", "get", "wine", "label", "2", "-"])
        #expect(get.status == 0)
        #expect(PatternBytes.checksum(of: get.outputBytes) == PatternBytes.checksum(of: bytes))
        // A declared size streams directly.
        let sized = project.run(["blob", "put", "wine", "label", "2", "-", "--size", String(size)], input: bytes.reversed())
        #expect(sized.status == 0, "\(sized.error)")
        #expect(try project.label(2) == .blob(bytes.reversed()))
    }

    @Test func insertCreatesTheRowAndIdentifiersAreQuoted() throws {
        let project = try BlobProject()
        try Database(path: project.databasePath).execute(#"CREATE TABLE "odd ""t""" ("x y" BLOB, "select" TEXT)"#)
        let input = try project.folder.write("in.bin", bytes: [1, 2, 3])
        let missing = project.run(["blob", "put", #"odd "t""#, "x y", "5", input])
        #expect(missing.status == 1)
        #expect(missing.error == "cellar: error: odd \"t\".x y, rowid 5: no such row (--insert creates it)\n")
        #expect(project.run(["blob", "put", #"odd "t""#, "x y", "5", input, "--insert"]).status == 0)
        let get = project.run(["blob", "get", #"odd "t""#, "x y", "5", "-"])
        #expect(get.outputBytes == [1, 2, 3])
    }

    @Test func binaryIsNotWrittenToATerminalUnlessForced() throws {
        let project = try BlobProject()
        let refused = project.run(["blob", "get", "wine", "label", "2", "-"], isOutputTerminal: true)
        #expect(refused.status == 1)
        #expect(refused.outputBytes.isEmpty)
        #expect(refused.error.contains("refusing to write binary data to a terminal"), "\(refused.error)")
        let forced = project.run(["blob", "get", "wine", "label", "2", "-", "--force"], isOutputTerminal: true)
        #expect(forced.status == 0)
        #expect(forced.outputBytes == [1, 2, 3, 4, 5])
    }

    @Test func aProgressLineShowsOnATerminalAndIsCleared() throws {
        let project = try BlobProject()
        let input = project.folder.file("in.bin")
        try PatternBytes.writeFile(count: 3 * Self.chunk, to: input)
        let shown = project.run(["blob", "put", "wine", "label", "1", input], isErrorTerminal: true)
        #expect(shown.error.hasPrefix("\r\u{1B}[Kwine.label, rowid 1: "), "\(shown.error)")
        #expect(shown.error.contains(" of 768.0 KiB ("))
        #expect(shown.error.hasSuffix("\r\u{1B}[K"))
        #expect(project.run(["blob", "put", "wine", "label", "1", input], isErrorTerminal: false).error.isEmpty)
        #expect(project.run(["blob", "put", "wine", "label", "1", input, "-q"], isErrorTerminal: true).error.isEmpty)
        // Forced onto the terminal, the bytes would land on the progress line's row: no line then.
        let forced = project.run(
            ["blob", "get", "wine", "label", "1", "-", "--force"], isOutputTerminal: true, isErrorTerminal: true)
        #expect(forced.status == 0 && forced.error.isEmpty && forced.outputBytes.count == 3 * Self.chunk, "\(forced.error)")
    }

    @Test(arguments: [
        (["put", "wine", "label", "9"], "missing argument <file>"),
        (["fetch", "wine", "label", "1", "x"], "the first argument is put or get, not 'fetch'"),
        (["get", "wine", "label", "one", "x"], "ROWID is a whole number, not 'one'"),
        (["get", "wine", "label", "1", "x", "--insert"], "--insert and --size go with put, not get"),
        (["put", "wine", "label", "1", "x", "--force"], "--force goes with get, not put"),
        (["put", "wine", "label", "1", "-", "--size", "-4"], "--size expects a number of bytes, not '-4'"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) throws {
        let project = try BlobProject()
        let run = project.run(["blob"] + arguments)
        #expect(run.status == 2)
        #expect(run.error.hasPrefix("cellar: error: \(message)\nusage: cellar blob "), "\(run.error)")
        #expect(try project.label(1) == Self.original)
    }

    @Test(arguments: [
        (["get", "wine", "label", "9"], "wine.label, rowid 9: no such row"),
        (["get", "wine", "label", "3"], "wine.label, rowid 3: the value is NULL, not a blob"),
        (["get", "wine", "label", "4"], "wine.label, rowid 4: the value is text, not a blob"),
        (["get", "cellar", "label", "1"], "cellar.label, rowid 1: no such table: main.cellar"),
        (["get", "wine", "colour", "1"], "wine.colour, rowid 1: no such column: \"colour\""),
    ])
    func getErrorsNameTheCellAndWriteNoFile(arguments: [String], message: String) throws {
        let project = try BlobProject()
        let run = project.run(["blob"] + arguments + [project.folder.file("out.bin")])
        #expect(run.status == 1)
        #expect(run.error == "cellar: error: \(message)\n")
        #expect(try project.fileNames() == ["wine.db"])
    }

    @Test func putErrorsKeepTheOldValue() throws {
        let project = try BlobProject()
        let input = try project.folder.write("in.bin", bytes: [7, 7, 7])
        let cases: [([String], [UInt8], String)] = [
            (
                ["put", "wine", "label", "1", project.folder.file("missing.bin")], [],
                "cannot read '\(project.folder.file("missing.bin"))': No such file or directory"
            ),
            (["put", "wine", "label", "1", project.folder.path], [], "'\(project.folder.path)' is a directory, not a file"),
            (
                ["put", "wine", "label", "1", "-", "--size", "5"], [1, 2],
                "wine.label, rowid 1: the input ended after 2 of 5 bytes; wine.label, rowid 1 keeps its old value"
            ),
            (
                ["put", "wine", "label", "1", "-", "--size", "1"], [1, 2],
                "wine.label, rowid 1: the input has more than the 1 bytes expected; wine.label, rowid 1 keeps its old value"
            ),
            (["put", "wine", "missing", "1", input], [], "wine.missing, rowid 1: no such column: missing"),
        ]
        for (arguments, stdin, message) in cases {
            let run = project.run(["blob"] + arguments, input: stdin)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.error == "cellar: error: \(message)\n")
            #expect(try project.label(1) == Self.original)
        }
        #expect(try project.fileNames() == ["in.bin", "wine.db"])
    }

    @Test func aReadOnlyDatabaseIsRefusedAndUnchanged() throws {
        let project = try BlobProject()
        let input = try project.folder.write("in.bin", bytes: [7])
        let run = project.run(["blob", "put", "wine", "label", "1", input], database: "file:\(project.databasePath)?mode=ro")
        #expect(run.status == 1)
        #expect(run.error == "cellar: error: wine.label, rowid 1: the database is read-only\n")
        #expect(try project.label(1) == Self.original)
    }

    @Test func getReplacesAnExistingFileAndRefusesAFolder() throws {
        let project = try BlobProject()
        let target = try project.folder.write("out.bin", "old contents that are longer")
        #expect(project.run(["blob", "get", "wine", "label", "2", target]).status == 0)
        #expect(try FileBytes.read(target) == [1, 2, 3, 4, 5])
        // The replaced file's permissions stay: a private file does not become readable by all.
        chmod(target, 0o600)
        #expect(project.run(["blob", "get", "wine", "label", "2", target]).status == 0)
        var status = stat()
        #expect(stat(target, &status) == 0 && status.st_mode & 0o777 == 0o600)
        let folder = project.run(["blob", "get", "wine", "label", "2", project.folder.path])
        #expect(folder.status == 1)
        #expect(folder.error == "cellar: error: '\(project.folder.path)' is a directory, not a file\n")
    }
}
