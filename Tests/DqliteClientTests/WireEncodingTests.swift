import Testing

@testable import DqliteClient

/// Requests as bytes, checked against the layout go-dqlite's `message.go` produces.
struct WireEncodingTests {
    @Test func leaderRequestIsOneHeaderAndOneZeroWord() throws {
        let bytes = try Request.leader.encoded()
        #expect(bytes == [1, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8))
    }

    @Test func headerCarriesSizeTypeAndRevision() {
        let header = MessageHeader(bodyWords: 0x0102_0304, type: 7, revision: 1)
        #expect(header.bytes == [4, 3, 2, 1, 7, 1, 0, 0])
        #expect(MessageHeader(bytes: header.bytes) == header)
        #expect(header.bodyByteCount == 0x0102_0304 * 8)
    }

    @Test(arguments: [("", 8), ("abc", 8), ("abcdefg", 8), ("abcdefgh", 16), ("é", 8)])
    func stringsEndWithNulAndPadToTheWord(text: String, size: Int) throws {
        var writer = MessageWriter()
        try writer.putString(text)
        #expect(writer.body.count == size)
        #expect(Array(writer.body.prefix(text.utf8.count)) == Array(text.utf8))
        #expect(writer.body.dropFirst(text.utf8.count).allSatisfy { $0 == 0 })
    }

    @Test(arguments: [0, 1, 7, 8, 9, 16])
    func blobsCarryTheirLengthAndPadToTheWord(length: Int) {
        var writer = MessageWriter()
        writer.putBlob([UInt8](repeating: 0xab, count: length))
        #expect(writer.body.count == 8 + (length + 7) / 8 * 8)
        #expect(writer.body[0] == UInt8(length))
        #expect(writer.body.dropFirst(8 + length).allSatisfy { $0 == 0 })
    }

    @Test func openRequestNamesTheDatabaseAndTheVolatileVFS() throws {
        let bytes = try Request.open(name: "app").encoded()
        let body = Array(bytes.dropFirst(8))
        #expect(bytes[0] == 4 && bytes[4] == 3)
        #expect(
            body == Array("app".utf8) + [0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + Array("volatile".utf8)
                + [UInt8](repeating: 0, count: 8))
    }

    @Test func parametersOfEveryTypeAreEncodedAsGoDqliteDoes() throws {
        let values: [DqliteValue] = [.integer(-2), .real(1.5), .text("hi"), .blob([1, 2, 3]), .null]
        let bytes = try Request.exec(database: 1, statement: 2, parameters: values).encoded()
        var expected: [UInt8] = [1, 0, 0, 0, 2, 0, 0, 0]  // database and statement ids (uint32 each)
        expected += [5, 1, 2, 3, 4, 5, 0, 0]  // count, five type codes, padding to the word
        expected += [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]  // -2
        expected += [0, 0, 0, 0, 0, 0, 0xf8, 0x3f]  // 1.5
        expected += [0x68, 0x69, 0, 0, 0, 0, 0, 0]  // "hi" and NUL
        expected += [3, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0]  // blob length, bytes, padding
        expected += [0, 0, 0, 0, 0, 0, 0, 0]  // null
        #expect(Array(bytes.dropFirst(8)) == expected)
        #expect(MessageHeader(bytes: bytes.prefix(8)) == MessageHeader(bodyWords: UInt32(expected.count / 8), type: 5))
    }

    @Test func typeCodesPastEightParametersSpillIntoTheNextWord() throws {
        let values = [DqliteValue](repeating: .integer(1), count: 8)
        let bytes = try Request.querySQL(database: 0, sql: "SELECT ?", parameters: values).encoded()
        let tuple = Array(bytes.dropFirst(8 + 8 + 16))
        #expect(Array(tuple.prefix(16)) == [8] + [UInt8](repeating: 1, count: 8) + [UInt8](repeating: 0, count: 7))
        #expect(tuple.count == 16 + 8 * 8)
    }

    @Test func noParametersMeansNoTuple() throws {
        let bytes = try Request.execSQL(database: 3, sql: "SELECT 1", parameters: []).encoded()
        #expect(bytes.count == 8 + 8 + 16)
        #expect(bytes[4] == 8)
    }

    @Test func moreThan255ParametersAreRefusedBeforeSending() {
        #expect(throws: DqliteError.invalidRequest("dqlite binds at most 255 parameters per statement, not 256")) {
            try Request.execSQL(database: 0, sql: "", parameters: Array(repeating: .null, count: 256)).encoded()
        }
    }

    @Test func textWithANulIsRefused() {
        #expect(throws: DqliteError.invalidRequest("text sent to dqlite cannot contain a NUL character")) {
            try Request.execSQL(database: 0, sql: "SELECT ?", parameters: [.text("a\u{0}b")]).encoded()
        }
    }

    @Test func everyMessageIsAWholeNumberOfWords() throws {
        let requests: [Request] = [
            .leader, .client(id: 9), .open(name: "x"), .prepare(database: 1, sql: "SELECT 1"),
            .exec(database: 1, statement: 1, parameters: [.text("abcdefghij")]), .finalize(database: 1, statement: 4),
            .querySQL(database: 1, sql: "SELECT ?", parameters: [.blob([9])]), .interrupt(database: 1),
        ]
        for request in requests {
            let bytes = try request.encoded()
            #expect(bytes.count % 8 == 0)
            #expect(MessageHeader(bytes: bytes.prefix(8)).bodyByteCount == bytes.count - 8)
        }
    }
}
