import Testing

@testable import DqliteClient

/// Rows read in place in a ROWS frame's bytes: every wire type, texts whose NUL and padding fall at
/// each edge of a word, bytes a renderer escapes, and frames cut short.
struct RowFrameReadingTests {
    @Test func everyTypeReadsInPlace() throws {
        var body = MessageWriter()
        try columns(["i", "r", "t", "b", "n", "unix", "iso", "flag"], into: &body)
        body.putUInt64(UInt64(0x21) | UInt64(0x43) << 8 | UInt64(0x95) << 16 | UInt64(0xBA) << 24)
        body.putInt64(Int64.min)
        body.putDouble(-0.0)
        try body.putString("naïve")
        body.putBlob([0, 255, 0])
        body.putUInt64(0)
        body.putInt64(1_700_000_000)
        try body.putString("2026-12-02 03:00:00")
        body.putUInt64(7)
        body.putUInt64(UInt64.max)
        let rows = try DqliteRows(first: RowFrame(body: body.body), connection: nil)
        #expect(try rows.advance())
        #expect(
            (0..<8).map(rows.storageClass(at:)) == [.integer, .real, .text, .blob, .null, .integer, .text, .integer])
        #expect(rows.integer(at: 0) == Int64.min)
        #expect(rows.real(at: 1) == 0 && rows.real(at: 1).sign == .minus)
        #expect(Array(rows.bytes(at: 2)) == Array("naïve".utf8))
        #expect(Array(rows.bytes(at: 3)) == [0, 255, 0])
        #expect(rows.bytes(at: 4).isEmpty)
        #expect(rows.integer(at: 5) == 1_700_000_000)
        #expect(Array(rows.bytes(at: 6)) == Array("2026-12-02 03:00:00".utf8))
        #expect(rows.integer(at: 7) == 1, "a boolean reads as 0 or 1")
        #expect(rows.value(at: 3) == .blob([0, 255, 0]) && rows.value(at: 4) == .null)
        #expect(try !rows.advance())
        #expect(rows.isFinished)
    }

    /// A text takes its bytes and a NUL, padded to the word: 7 bytes fill one word exactly, 8 spill
    /// into a second, 15 fill two; the value after each must start at the next word.
    @Test(arguments: [0, 1, 7, 8, 15, 16, 23])
    func textsEndingAtEachEdgeOfAWordLeaveTheNextValueInPlace(length: Int) throws {
        let text = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
        var body = MessageWriter()
        try columns(["t", "after"], into: &body)
        for value in 1...2 {
            body.putUInt64(0x13)  // text, integer
            try body.putString(text)
            body.putInt64(Int64(value))
        }
        body.putUInt64(UInt64.max)
        let rows = try DqliteRows(first: RowFrame(body: body.body), connection: nil)
        for value in 1...2 {
            #expect(try rows.advance())
            #expect(String(decoding: rows.bytes(at: 0), as: UTF8.self) == text)
            #expect(rows.integer(at: 1) == Int64(value))
        }
        #expect(try !rows.advance())
    }

    /// The bytes come out exactly as the server sent them: quotes, separators, a newline, a control
    /// byte and multi-byte UTF-8 are the renderer's to escape.
    @Test func bytesARendererEscapesComeOutUnchanged() throws {
        let text = "a\"b,c'd\né\u{1B}[1m\t|"
        var body = MessageWriter()
        try columns(["t"], into: &body)
        body.putUInt64(0x03)
        try body.putString(text)
        body.putUInt64(UInt64.max)
        let rows = try DqliteRows(first: RowFrame(body: body.body), connection: nil)
        #expect(try rows.advance())
        #expect(Array(rows.bytes(at: 0)) == Array(text.utf8))
        #expect(rows.value(at: 0) == .text(text))
    }

    @Test func seventeenColumnsReadTheirHeaderFromTwoWords() throws {
        var body = MessageWriter()
        try columns((1...17).map { "c\($0)" }, into: &body)
        body.putUInt64(0x1111_1111_1111_1111)
        body.putUInt64(0x05)  // column 17: NULL
        for value in 1...16 { body.putInt64(Int64(value)) }
        body.putUInt64(0)
        body.putUInt64(UInt64.max)
        let rows = try DqliteRows(first: RowFrame(body: body.body), connection: nil)
        #expect(try rows.advance())
        #expect((0..<16).map(rows.integer(at:)) == (1...16).map(Int64.init))
        #expect(rows.storageClass(at: 16) == .null)
    }

    /// Cut anywhere inside its rows, a frame is a protocol violation naming what it ends in, never a
    /// read past its end; rows before the cut still read.
    @Test(arguments: Array(1...40))
    func aFrameCutShortIsAProtocolViolation(removedWords: Int) throws {
        var body = MessageWriter()
        try columns(["i", "t", "b"], into: &body)
        let rowsStart = body.body.count
        for value in 1...3 {
            body.putUInt64(0x431)  // integer, text, blob
            body.putInt64(Int64(value))
            try body.putString("fifteen bytes..")
            body.putBlob(Array(repeating: UInt8(value), count: 9))
        }
        let full = body.body
        let cut = Array(full.prefix(max(rowsStart, full.count - removedWords)))
        var rowsRead = 0
        do {
            let rows = try DqliteRows(first: RowFrame(body: cut), connection: nil)
            while try rows.advance() { rowsRead += 1 }
            Issue.record("a cut frame read to its end")
        } catch let DqliteError.protocolViolation(message) {
            let isClear =
                message.hasPrefix("a ROWS frame ends") || message == "a text in a row without its terminating NUL"
                || message.hasPrefix("blob of 9 bytes in a row with")
            #expect(isClear, "\(message)")
        }
        #expect(rowsRead <= 3)
    }

    @Test func aTextWithoutItsNULIsAProtocolViolation() throws {
        var body = MessageWriter()
        try columns(["t"], into: &body)
        body.putUInt64(0x03)
        let cut = body.body + Array("abcdefgh".utf8)
        let rows = try DqliteRows(first: RowFrame(body: cut), connection: nil)
        #expect(throws: DqliteError.protocolViolation("a text in a row without its terminating NUL")) { try rows.advance() }
    }

    @Test func aBlobLongerThanItsFrameIsAProtocolViolation() throws {
        var body = MessageWriter()
        try columns(["b"], into: &body)
        body.putUInt64(0x04)
        body.putUInt64(1 << 40)
        body.putUInt64(UInt64.max)
        let rows = try DqliteRows(first: RowFrame(body: body.body), connection: nil)
        #expect(throws: DqliteError.protocolViolation("blob of 1099511627776 bytes in a row with 8 bytes left in its frame")) {
            try rows.advance()
        }
    }

    private func columns(_ names: [String], into body: inout MessageWriter) throws {
        body.putUInt64(UInt64(names.count))
        for name in names { try body.putString(name) }
    }
}
