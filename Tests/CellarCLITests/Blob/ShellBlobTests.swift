import CellarKit
import TestSupport
import Testing

/// The shell's `.blob put|get`: the same arguments as `cellar blob`, inside the shell's transaction,
/// refused under `--safe`.
@Suite struct ShellBlobTests {
    @Test func putAndGetRoundTripThroughTheShell() throws {
        let project = try BlobProject()
        let input = project.folder.file("in.bin")
        try PatternBytes.writeFile(count: BlobHandle.defaultChunkSize + 1, seed: 5, to: input)
        let output = project.folder.file("out.bin")
        let run = project.run(
            ["shell"],
            input: Array(
                ".blob put wine label 7 '\(input)' --insert\n.blob get wine label 7 '\(output)'\nSELECT length(label) FROM wine WHERE id = 7;\n"
                    .utf8))
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "\(BlobHandle.defaultChunkSize + 1)\n")
        #expect(try PatternBytes.checksum(ofFile: output) == PatternBytes.checksum(ofFile: input))
    }

    @Test func getToTheOutputFollowsDotOutput() throws {
        let project = try BlobProject()
        let redirected = project.folder.file("redirected.bin")
        let run = project.run(
            ["shell"], input: Array(".blob get wine label 2 -\n.output '\(redirected)'\n.blob get wine label 1 -\n".utf8))
        #expect(run.status == 0, "\(run.error)")
        #expect(run.outputBytes == [1, 2, 3, 4, 5])
        #expect(try FileBytes.read(redirected) == [0x89, 0x50, 0x4E, 0x47])
    }

    @Test func insideAnOpenTransactionARollbackUndoesIt() throws {
        let project = try BlobProject()
        let input = try project.folder.write("in.bin", bytes: [4, 2])
        let run = project.run(["shell"], input: Array("BEGIN;\n.blob put wine label 1 '\(input)'\nROLLBACK;\n".utf8))
        #expect(run.status == 0, "\(run.error)")
        #expect(try project.label(1) == BlobCommandTests.original)
    }

    @Test func errorsNameTheLineAndTheCell() throws {
        let project = try BlobProject()
        let run = project.run(
            ["shell"], input: Array(".blob get wine label 3 -\n.blob put wine label 1 -\n.blob get wine\n".utf8))
        #expect(run.status == 1)
        #expect(run.error.contains("<stdin>:1:1: error: wine.label, rowid 3: the value is NULL, not a blob"), "\(run.error)")
        #expect(run.error.contains("<stdin>:2:1: error: .blob put reads a FILE: standard input holds the shell's own input"))
        #expect(
            run.error.contains("<stdin>:3:1: error: get takes TABLE COLUMN ROWID FILE (or - for standard output); Usage: .blob"))
    }

    @Test func safeModeRefusesBlob() throws {
        let project = try BlobProject()
        let output = project.folder.file("out.bin")
        let run = project.run(["shell", "--safe"], input: Array(".blob get wine label 1 '\(output)'\n".utf8))
        #expect(run.status == 1)
        #expect(run.error.contains(".blob is not allowed with --safe"))
        #expect(!FileBytes.exists(output))
    }
}
