import CellarKit
import TestSupport
import Testing

/// Blobs go in and out of a cell in chunks and come back byte for byte, whatever their size is
/// relative to the chunk.
@Suite struct BlobRoundTripTests {
    static let chunk = 4096

    @Test(arguments: [0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk + 7])
    func roundTripIsByteIdentical(size: Int) throws {
        let fixture = try BlobFixture()
        let bytes = PatternBytes.bytes(count: size, seed: UInt64(size))
        try fixture.store(bytes, in: 1, chunkSize: Self.chunk)
        let loaded = try fixture.load(1, chunkSize: Self.chunk)
        #expect(PatternBytes.checksum(of: loaded) == PatternBytes.checksum(of: bytes))
        #expect(try fixture.label(1) == .blob(bytes))
    }

    @Test(arguments: [BlobHandle.defaultChunkSize - 1, BlobHandle.defaultChunkSize, BlobHandle.defaultChunkSize + 1])
    func roundTripAroundTheDefaultChunkSize(size: Int) throws {
        let fixture = try BlobFixture()
        let bytes = PatternBytes.bytes(count: size, seed: 7)
        try fixture.store(bytes, in: 2)
        #expect(try fixture.load(2) == bytes)
    }

    @Test func chunksAreOfTheGivenSize() throws {
        let fixture = try BlobFixture()
        try fixture.store(PatternBytes.bytes(count: 10_000), in: 1)
        var reports: [Int] = []
        try fixture.database.readBlob(table: "wine", column: "label", rowID: 1, to: BufferSink(), chunkSize: 4096) {
            reports.append($0)
        }
        #expect(reports == [4096, 8192, 10_000])
    }

    @Test func zeroBlobBindsZerosOfTheGivenSize() throws {
        let fixture = try BlobFixture()
        let update = try fixture.database.prepare("UPDATE wine SET label = :label WHERE id = 1")
        try update.bindZeroBlob(count: 5, named: ":label")
        try update.run()
        #expect(try fixture.label(1) == .blob([0, 0, 0, 0, 0]))
        let tooBig = try fixture.database.prepare("SELECT ?")
        let error = #expect(throws: SQLiteError.self) {
            try tooBig.bindZeroBlob(count: fixture.database.maximumValueLength + 1, at: 1)
        }
        #expect(error?.primaryCode == 18)  // SQLITE_TOOBIG
    }

    @Test func insideAnOpenTransactionAFailureUndoesOnlyTheBlob() throws {
        let fixture = try BlobFixture()
        try fixture.database.execute("BEGIN")
        try fixture.database.execute("UPDATE wine SET name = 'Kept' WHERE id = 2")
        #expect(throws: BlobError.self) {
            try fixture.database.writeBlob(table: "wine", column: "label", rowID: 1, from: BufferSource([1, 2]), count: 3)
        }
        #expect(try !fixture.database.isAutocommit)
        try fixture.database.execute("COMMIT")
        #expect(try fixture.database.scalar("SELECT name FROM wine WHERE id = 2") == .text("Kept"))
        #expect(try fixture.label(1) == .blob([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func createsRowInsertsAMissingRowWithDefaults() throws {
        let fixture = try BlobFixture()
        try fixture.database.writeBlob(
            table: "wine", column: "label", rowID: 42, from: BufferSource([9, 8, 7]), count: 3, createsRow: true)
        #expect(try fixture.label(42) == .blob([9, 8, 7]))
        #expect(try fixture.database.scalar("SELECT name FROM wine WHERE id = 42") == .text("unnamed"))
    }

    @Test func cancellationBetweenChunksKeepsTheOldValue() throws {
        let fixture = try BlobFixture()
        let flag = CancellationFlag()
        fixture.database.cancellation = flag
        let error = #expect(throws: SQLiteError.self) {
            try fixture.database.writeBlob(
                table: "wine", column: "label", rowID: 1, from: BufferSource(PatternBytes.bytes(count: 50_000)),
                count: 50_000, chunkSize: 4096
            ) { copied in
                if copied >= 8192 { flag.cancel() }
            }
        }
        #expect(error?.isInterrupt == true)
        fixture.database.cancellation = nil
        #expect(try fixture.label(1) == .blob([0x89, 0x50, 0x4E, 0x47]))
        #expect(try fixture.database.isAutocommit)
    }
}

/// 100 MB through the streaming helpers, checked with sha256sum.
@Suite struct BlobRoundTripSlowTests {
    @Test func hundredMegabytesRoundTrip() throws {
        let fixture = try BlobFixture()
        let size = 100 << 20
        let input = fixture.folder.file("in.bin")
        let output = fixture.folder.file("out.bin")
        try PatternBytes.writeFile(count: size, seed: 100, to: input)
        try fixture.database.writeBlob(
            table: "wine", column: "label", rowID: 7, from: try OpenFile(input), count: size, createsRow: true)
        #expect(
            try fixture.database.readBlob(table: "wine", column: "label", rowID: 7, to: try OpenFile(output, writing: true))
                == size)
        #expect(try PatternBytes.checksum(ofFile: output) == PatternBytes.checksum(ofFile: input))
    }
}
