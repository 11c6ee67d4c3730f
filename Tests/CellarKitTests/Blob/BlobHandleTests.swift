import CellarKit
import TestSupport
import Testing

/// The blob handle: reads and writes at an offset, its size, reopening, closing, and every error
/// naming the table, column and rowid.
@Suite struct BlobHandleTests {
    @Test func readsAndWritesAtAnOffset() throws {
        let fixture = try BlobFixture()
        let blob = try fixture.database.openBlob(table: "wine", column: "label", rowID: 2, access: .readWrite)
        #expect(try blob.size == 5)
        #expect(try blob.read(count: 2, at: 3) == [4, 5])
        try blob.write([9, 9], at: 1)
        #expect(try blob.read(count: 5, at: 0) == [1, 9, 9, 4, 5])
        #expect(try blob.read(count: 0, at: 5) == [])
        try blob.close()
        #expect(try fixture.label(2) == .blob([1, 9, 9, 4, 5]))
    }

    @Test func reopenMovesToAnotherRowAndAFailedReopenStaysPut() throws {
        let fixture = try BlobFixture()
        let blob = try fixture.database.openBlob(table: "wine", column: "label", rowID: 1)
        try blob.reopen(rowID: 2)
        #expect(blob.rowID == 2)
        #expect(try blob.size == 5)
        let error = #expect(throws: BlobError.self) { try blob.reopen(rowID: 99) }
        #expect(error == BlobError(table: "wine", column: "label", rowID: 99, reason: .noSuchRow))
        #expect(blob.rowID == 2)
        #expect(try blob.read(count: 1, at: 0) == [1])
        #expect(throws: BlobError(table: "wine", column: "label", rowID: 3, reason: .notABlob(.null))) {
            try blob.reopen(rowID: 3)
        }
    }

    @Test func everyUseAfterCloseThrows() throws {
        let fixture = try BlobFixture()
        let blob = try fixture.database.openBlob(table: "wine", column: "label", rowID: 1, access: .readWrite)
        try blob.close()
        try blob.close()
        let closed = BlobError(table: "wine", column: "label", rowID: 1, reason: .closed)
        #expect(throws: closed) { try blob.size }
        #expect(throws: closed) { try blob.read(count: 1, at: 0) }
        #expect(throws: closed) { try blob.write([1], at: 0) }
        #expect(throws: closed) { try blob.reopen(rowID: 2) }
        #expect(throws: closed) { try blob.copy(to: BufferSink()) }
    }

    @Test func theHandleClosesWhenReleased() throws {
        let fixture = try BlobFixture()
        var blob: BlobHandle? = try fixture.database.openBlob(table: "wine", column: "label", rowID: 1)
        #expect(throws: SQLiteError.self) { try fixture.database.close() }
        #expect(try blob?.size == 4)
        blob = nil
        try fixture.database.close()
    }

    @Test(arguments: [
        (Int64(99), BlobError.Reason.noSuchRow),
        (3, .notABlob(.null)),
        (4, .notABlob(.text)),
    ])
    func openingACellThatHoldsNoBlobNamesIt(rowID: Int64, reason: BlobError.Reason) throws {
        let fixture = try BlobFixture()
        try fixture.database.execute("INSERT INTO wine (id, label) VALUES (5, 12)")
        let error = #expect(throws: BlobError.self) {
            try fixture.database.openBlob(table: "wine", column: "label", rowID: rowID)
        }
        #expect(error == BlobError(table: "wine", column: "label", rowID: rowID, reason: reason))
        #expect(error?.description.hasPrefix("wine.label, rowid \(rowID): ") == true)
        #expect(throws: BlobError(table: "wine", column: "label", rowID: 5, reason: .notABlob(.integer))) {
            try fixture.database.openBlob(table: "wine", column: "label", rowID: 5)
        }
    }

    @Test func aReadOnlyDatabaseRefusesWritingAndAReadHandleRefusesWrites() throws {
        let fixture = try BlobFixture()
        let readOnly = try Database(path: fixture.folder.file("blobs.db"), options: Database.Options(mode: .readOnly))
        #expect(throws: BlobError(table: "wine", column: "label", rowID: 1, reason: .readOnlyDatabase)) {
            try readOnly.openBlob(table: "wine", column: "label", rowID: 1, access: .readWrite)
        }
        #expect(throws: BlobError(table: "wine", column: "label", rowID: 1, reason: .readOnlyDatabase)) {
            try readOnly.writeBlob(table: "wine", column: "label", rowID: 1, from: BufferSource([1]), count: 1)
        }
        let reader = try fixture.database.openBlob(table: "wine", column: "label", rowID: 1)
        #expect(throws: BlobError(table: "wine", column: "label", rowID: 1, reason: .openedForReading)) {
            try reader.write([0], at: 0)
        }
        #expect(try fixture.label(1) == .blob([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func aChangedRowInvalidatesTheHandle() throws {
        let fixture = try BlobFixture()
        let blob = try fixture.database.openBlob(table: "wine", column: "label", rowID: 2)
        try fixture.database.execute("UPDATE wine SET name = 'Changed' WHERE id = 2")
        let error = #expect(throws: BlobError.self) { try blob.read(count: 1, at: 0) }
        #expect(error == BlobError(table: "wine", column: "label", rowID: 2, reason: .rowChanged))
        #expect(error?.description == "wine.label, rowid 2: the row changed after the blob was opened, which invalidates it")
        try blob.reopen(rowID: 2)
        #expect(try blob.read(count: 1, at: 0) == [1])
    }

    @Test(arguments: [(-1, 1), (0, 5), (4, 1), (5, -1)])
    func readsAndWritesPastTheEndAreRefused(offset: Int, count: Int) throws {
        let fixture = try BlobFixture()
        let blob = try fixture.database.openBlob(table: "wine", column: "label", rowID: 1, access: .readWrite)
        let expected = BlobError(
            table: "wine", column: "label", rowID: 1, reason: .outOfRange(offset: offset, count: count, size: 4))
        #expect(throws: expected) { try blob.read(count: count, at: offset) }
        if count >= 0 {
            #expect(throws: expected) { try blob.write([UInt8](repeating: 1, count: count), at: offset) }
        }
        #expect(try fixture.label(1) == .blob([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func sqliteRefusalsNameTheCellToo() throws {
        let fixture = try BlobFixture()
        try fixture.database.execute("CREATE TABLE keyed (k TEXT PRIMARY KEY, b BLOB) WITHOUT ROWID")
        for (table, column) in [("missing", "label"), ("wine", "missing"), ("keyed", "b")] {
            let error = #expect(throws: BlobError.self) { try fixture.database.openBlob(table: table, column: column, rowID: 1) }
            guard case .failed(let underlying)? = error?.reason else {
                Issue.record("expected SQLite's refusal for \(table).\(column), got \(String(describing: error))")
                continue
            }
            #expect(error?.description == "\(table).\(column), rowid 1: \(underlying.message)")
        }
        let writing = #expect(throws: BlobError.self) {
            try fixture.database.writeBlob(table: "keyed", column: "b", rowID: 1, from: BufferSource([1]), count: 1)
        }
        #expect(writing?.description == "keyed.b, rowid 1: cannot open table without rowid: keyed")
    }

    @Test func tooBigAndMismatchedSourcesLeaveTheOldValue() throws {
        let fixture = try BlobFixture()
        let limit = fixture.database.maximumValueLength
        #expect(throws: BlobError(table: "wine", column: "label", rowID: 1, reason: .tooBig(size: limit + 1, limit: limit))) {
            try fixture.database.writeBlob(table: "wine", column: "label", rowID: 1, from: BufferSource([]), count: limit + 1)
        }
        #expect(throws: BlobError(table: "wine", column: "label", rowID: 1, reason: .sourceTooShort(expected: 10, received: 3))) {
            try fixture.database.writeBlob(table: "wine", column: "label", rowID: 1, from: BufferSource([1, 2, 3]), count: 10)
        }
        #expect(throws: BlobError(table: "wine", column: "label", rowID: 1, reason: .sourceTooLong(expected: 2))) {
            try fixture.database.writeBlob(table: "wine", column: "label", rowID: 1, from: BufferSource([1, 2, 3]), count: 2)
        }
        #expect(throws: BlobError(table: "wine", column: "label", rowID: 9, reason: .noSuchRow)) {
            try fixture.database.writeBlob(table: "wine", column: "label", rowID: 9, from: BufferSource([1]), count: 1)
        }
        #expect(try fixture.label(1) == .blob([0x89, 0x50, 0x4E, 0x47]))
        #expect(try fixture.database.scalar("SELECT count(*) FROM wine") == .integer(4))
        #expect(try fixture.database.isAutocommit)
    }
}
