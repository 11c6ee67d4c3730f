import Testing

@testable import DqliteClient

/// Responses from bytes: failures, leader answers, results, and rows split over frames.
struct WireDecodingTests {
    @Test func failureCarriesTheServerCodeAndMessage() throws {
        var body = MessageWriter()
        body.putUInt64(1)
        try body.putString("no such table: wines")
        let response = try Response(type: 0, body: body.body)
        #expect(response == .failure(code: 1, message: "no such table: wines"))
        #expect(response.failure == .server(code: 1, message: "no such table: wines"))
        #expect(response.failure?.isLeadershipLoss == false)
    }

    @Test(arguments: [10 | 40 << 8, 10 | 41 << 8, 10 | 32 << 8, 10 | 33 << 8] as [UInt64])
    func notLeaderAndLeadershipLostCodesMeanReconnect(code: UInt64) {
        #expect(DqliteError.server(code: code, message: "not leader").isLeadershipLoss)
        #expect(DqliteError.connectionLost(address: "a:1", reason: "reset").isLeadershipLoss)
        #expect(!DqliteError.server(code: 19, message: "UNIQUE constraint failed").isLeadershipLoss)
    }

    @Test func nodeResponseNamesTheLeader() throws {
        var body = MessageWriter()
        body.putUInt64(42)
        try body.putString("127.0.0.1:9001")
        #expect(try Response(type: 1, body: body.body) == .node(id: 42, address: "127.0.0.1:9001"))
    }

    @Test func statementAndResultResponses() throws {
        var statement = MessageWriter()
        statement.putUInt32(1)
        statement.putUInt32(7)
        statement.putUInt64(2)
        #expect(try Response(type: 5, body: statement.body) == .statement(database: 1, id: 7, parameterCount: 2))
        var result = MessageWriter()
        result.putInt64(12)
        result.putUInt64(3)
        #expect(try Response(type: 6, body: result.body) == .result(DqliteResult(lastInsertID: 12, rowsAffected: 3)))
    }

    @Test func rowsOfEveryTypeDecode() throws {
        var body = MessageWriter()
        try columns(["i", "r", "t", "b", "n"], into: &body)
        body.putUInt64(UInt64(0x21) | UInt64(0x43) << 8 | UInt64(0x05) << 16)  // types 1,2,3,4,5 in nibbles
        body.putInt64(-7)
        body.putDouble(-0.0)
        try body.putString("naïve")
        body.putBlob([0, 255])
        body.putUInt64(0)
        body.putUInt64(UInt64.max)  // done
        guard case .rows(let frame) = try Response(type: 7, body: body.body) else {
            Issue.record("not rows")
            return
        }
        #expect(frame.columns == ["i", "r", "t", "b", "n"])
        #expect(!frame.hasMore)
        let rows = try frame.decodedRows()
        #expect(rows == [[.integer(-7), .real(-0.0), .text("naïve"), .blob([0, 255]), .null]])
        #expect(rows[0][1] == .real(-0.0) && (rows[0][1] == .real(0.0)))
    }

    @Test func partMarkerSaysAnotherFrameFollows() throws {
        var body = MessageWriter()
        try columns(["x"], into: &body)
        for value in 1...3 {
            body.putUInt64(1)
            body.putInt64(Int64(value))
        }
        body.putUInt64(0xeeee_eeee_eeee_eeee)
        let frame = try RowFrame(body: body.body)
        #expect(frame.hasMore)
        #expect(try frame.decodedRows() == [[.integer(1)], [.integer(2)], [.integer(3)]])
    }

    @Test func emptyResultStillHasItsColumns() throws {
        var body = MessageWriter()
        try columns(["a", "b"], into: &body)
        body.putUInt64(UInt64.max)
        let frame = try RowFrame(body: body.body)
        #expect(frame.columns == ["a", "b"] && !frame.hasMore)
        #expect(try frame.decodedRows().isEmpty)
    }

    @Test func dqliteTimeAndBooleanTypesReadAsTheirStorageClass() throws {
        var body = MessageWriter()
        try columns(["unix", "iso", "empty", "flag"], into: &body)
        body.putUInt64(UInt64(0xA9) | UInt64(0xBA) << 8)  // 9, 10, 10, 11
        body.putInt64(1_700_000_000)
        try body.putString("2026-11-30 12:00:00")
        try body.putString("")
        body.putUInt64(1)
        body.putUInt64(UInt64.max)
        let frame = try RowFrame(body: body.body)
        #expect(try frame.decodedRows() == [[.integer(1_700_000_000), .text("2026-11-30 12:00:00"), .null, .integer(1)]])
    }

    @Test func seventeenColumnsTakeTwoHeaderWords() throws {
        var body = MessageWriter()
        try columns((1...17).map { "c\($0)" }, into: &body)
        body.putUInt64(0x1111_1111_1111_1111)  // columns 1–16: INTEGER
        body.putUInt64(0x01)  // column 17: INTEGER, then padding
        for value in 1...17 { body.putInt64(Int64(value)) }
        body.putUInt64(UInt64.max)
        let frame = try RowFrame(body: body.body)
        #expect(try frame.decodedRows() == [(1...17).map { DqliteValue.integer(Int64($0)) }])
    }

    @Test func truncatedBodiesAreProtocolViolations() throws {
        var body = MessageWriter()
        body.putUInt64(1)
        try body.putString("abc")
        let cut = Array(body.body.prefix(10))
        #expect(throws: DqliteError.self) { try Response(type: 0, body: cut) }
        #expect(throws: DqliteError.self) { try Response(type: 6, body: [1, 2, 3]) }
        #expect(throws: DqliteError.protocolViolation("unknown response type 99")) { try Response(type: 99, body: []) }
    }

    @Test func unknownValueTypeIsAProtocolViolation() throws {
        var body = MessageWriter()
        try columns(["x"], into: &body)
        body.putUInt64(7)
        body.putUInt64(0)
        body.putUInt64(UInt64.max)
        let frame = try RowFrame(body: body.body)
        #expect(throws: DqliteError.protocolViolation("unknown value type 7 in a row")) { try frame.decodedRows() }
    }

    private func columns(_ names: [String], into body: inout MessageWriter) throws {
        body.putUInt64(UInt64(names.count))
        for name in names { try body.putString(name) }
    }
}
