import CellarKit
import Glibc
import TestSupport
import Testing

/// `cellar blob` as a user runs it, with 100 MB: from a file, from a pipe of unknown size, to a file
/// and to standard output, compared with sha256sum.
@Suite struct BlobEndToEndSlowTests {
    static let size = 100 << 20

    @Test func hundredMegabytesRoundTripThroughFilesAndPipes() throws {
        let folder = TemporaryDirectory()
        try Database(path: folder.file("w.db")).execute("CREATE TABLE wine (id INTEGER PRIMARY KEY, label BLOB)")
        let input = folder.file("in.bin")
        try PatternBytes.writeFile(count: Self.size, seed: 42, to: input)
        let expected = try PatternBytes.checksum(ofFile: input)

        let put = try Cellar.run(["blob", "put", "wine", "label", "1", "in.bin", "--insert", "-d", "w.db"], in: folder.path)
        #expect(put.status == 0, "\(put)")
        let get = try Cellar.run(["blob", "get", "wine", "label", "1", "out.bin", "-d", "w.db"], in: folder.path)
        #expect(get.status == 0, "\(get)")
        #expect(try PatternBytes.checksum(ofFile: folder.file("out.bin")) == expected)

        // A pipe says no size: cellar spools it beside the database, then streams it in.
        let piped = try Cellar.start(
            ["blob", "put", "wine", "label", "2", "-", "--insert", "-q", "-d", "w.db"], in: folder.path, pipesInput: true)
        let source = try OpenFile(input)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while case let count = try chunk.withUnsafeMutableBytes({ try source.read(into: $0) }), count > 0 {
            try piped.feed(Array(chunk[0..<count]))
        }
        piped.closeInput()
        let pipedResult = try piped.wait(timeout: 300)
        #expect(pipedResult.status == 0, "\(pipedResult)")
        // Standard output goes to a file through the shell: 100 MB of binary is no test-result string.
        let toStandardOutput = try Shell.run(
            "/bin/sh", ["-c", "\"$0\" blob get wine label 2 - -d w.db > stdout.bin", Cellar.executablePath],
            environment: Cellar.cleanEnvironment, directory: folder.path)
        #expect(toStandardOutput.status == 0, "\(toStandardOutput)")
        let names = try DirectoryListing.fileNames(in: folder.path)
        #expect(names == ["in.bin", "out.bin", "stdout.bin", "w.db"])
        #expect(try PatternBytes.checksum(ofFile: folder.file("stdout.bin")) == expected)
    }
}
