import CellarKit
import Glibc
import TestSupport
import Testing

/// Machine modes stream an encoded blob cell (hex, base64, `X'…'`) in chunks: under a memory limit that
/// holds the blob but not a second, encoded copy, the whole cell is written; and a cell SQLite itself
/// cannot load is an "out of memory" error, never a crash.
@Suite struct MemoryLimitSlowTests {
    /// The blob's size: the limit below holds it once, with room to spare, but not with its encoding.
    private static let blobSize = 48_000_000
    /// The address-space limit in KiB (`ulimit -v`): about 40 MB of process plus the blob.
    private static let limit = 128_000

    /// Runs `cellar arguments…` under the memory limit, standard output into `out`.
    private func limitedCellar(_ arguments: [String], in folder: TemporaryDirectory) throws -> ChildProcess.Result {
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        return try Shell.run(
            "/bin/sh", ["-c", "ulimit -v \(Self.limit) && exec \"$0\" \(quoted) > out", Cellar.executablePath],
            environment: Cellar.cleanEnvironment, directory: folder.path)
    }

    private func blobDatabase(in folder: TemporaryDirectory) throws {
        let database = try Database(path: folder.file("blob.db"))
        try database.execute("CREATE TABLE t(b BLOB); INSERT INTO t VALUES (zeroblob(\(Self.blobSize)))")
    }

    /// The bytes each mode writes around the encoded cell, and the encoded length.
    @Test(arguments: [
        ("csv", 2 * blobSize + 2), ("tsv", 2 * blobSize + 1), ("list", 2 * blobSize + 1),
        ("quote", 2 * blobSize + 4), ("insert", 2 * blobSize + 33), ("json", blobSize / 3 * 4 + 11),
        ("jsonl", blobSize / 3 * 4 + 9),
    ])
    func aBlobCellIsStreamedUnderAMemoryLimit(mode: String, expectedSize: Int) throws {
        let folder = TemporaryDirectory()
        try blobDatabase(in: folder)
        let result = try limitedCellar(["query", "-d", "blob.db", "--mode", mode, "SELECT b FROM t"], in: folder)
        #expect(result.status == 0, "\(mode): \(result)")
        #expect(!result.error.contains("Fatal error"), "\(mode): \(result.error.prefix(200))")
        var info = stat()
        #expect(stat(folder.file("out"), &info) == 0)
        #expect(Int(info.st_size) == expectedSize, "\(mode)")
    }

    @Test func theEncodedCellIsExact() throws {
        let folder = TemporaryDirectory()
        let database = try Database(path: folder.file("blob.db"))
        // Three chunks and a remainder, with bytes that are not all zero.
        try database.execute(
            "CREATE TABLE t(b BLOB); INSERT INTO t SELECT substr(randomblob(400000), 1, 3 * 49152 * 2 + 7)")
        let blob = try database.prepare("SELECT b FROM t")
        #expect(try blob.step())
        let bytes = blob.blob(at: 0)
        for (mode, expected) in [
            ("list", HexEncoding.string(bytes) + "\n"), ("quote", "X'" + HexEncoding.string(bytes) + "'\n"),
            ("jsonl", "{\"b\":\"" + Base64Encoding.string(bytes) + "\"}\n"),
        ] {
            let result = try Cellar.run(["query", "-d", "blob.db", "--mode", mode, "SELECT b FROM t"], in: folder.path)
            #expect(result.status == 0, "\(result)")
            #expect(result.output == expected, "\(mode)")
        }
    }

    @Test func aCellTooLargeToLoadIsAnOutOfMemoryError() throws {
        let folder = TemporaryDirectory()
        try blobDatabase(in: folder)
        let sql = "SELECT b || b || b FROM t"
        let result = try limitedCellar(["query", "-d", "blob.db", "--mode", "csv", sql], in: folder)
        #expect(result.status == 1, "\(result)")
        #expect(result.error.contains("error: out of memory"), "\(result.error.prefix(200))")
        #expect(!result.error.contains("Fatal error"))
    }
}
