import CellarKit
import Testing

/// Random text and bytes through every human mode: nothing from the database reaches the terminal
/// raw, and grids stay rectangular.
@Suite struct RenderingPropertyTests {
    static func randomDatabase(rows: Int) throws -> Database {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE r(t TEXT, raw TEXT, b BLOB, n)")
        var generator = SeededGenerator(seed: 7)
        let insert = try db.prepare("INSERT INTO r VALUES (?, CAST(? AS TEXT), ?, ?)")
        try db.transaction {
            for _ in 0..<rows {
                try insert.bind(RandomValues.text(&generator), at: 1)
                try insert.bind(Value.blob(RandomValues.bytes(&generator)), at: 2)
                try insert.bind(Value.blob(RandomValues.bytes(&generator, maximumLength: 30)), at: 3)
                let number: Value =
                    Bool.random(using: &generator) ? .integer(Int64.random(in: -999...999_999, using: &generator)) : .null
                try insert.bind(number, at: 4)
                try insert.run()
                try insert.reset()
            }
        }
        return db
    }

    /// A byte that would act on a terminal: C0 controls but the line feed, DEL, or the UTF-8 of a C1 control.
    static func firstRawControl(in bytes: [UInt8]) -> Int? {
        for (index, byte) in bytes.enumerated() {
            if (byte < 0x20 && byte != 0x0A) || byte == 0x7F { return index }
            if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return index }
        }
        return nil
    }

    @Test(arguments: [OutputMode.box, .table, .markdown, .line])
    func humanModesNeverWriteARawControlByte(mode: OutputMode) throws {
        let db = try Self.randomDatabase(rows: 10_000)
        let bytes = try RenderFixture.render(
            "SELECT * FROM r", on: db, options: RenderOptions(mode: mode, nullValue: "\u{1B}]0;x\u{7}"))
        #expect(!bytes.isEmpty)
        #expect(Self.firstRawControl(in: bytes) == nil)
        #expect(String(validating: bytes, as: UTF8.self) != nil)
    }

    @Test(arguments: [OutputMode.box, .table, .markdown])
    func everyGridLineHasTheSameDisplayWidth(mode: OutputMode) throws {
        let db = try Self.randomDatabase(rows: 10_000)
        // Size from the first 100 rows so that later, wider cells must be cut with '…'.
        let options = RenderOptions(mode: mode, sizingRowCount: 100)
        let text = String(decoding: try RenderFixture.render("SELECT * FROM r", on: db, options: options), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count >= 10_000)
        let widths = Set(lines.map { DisplayWidth.of(String($0)) })
        #expect(widths.count == 1, "widths: \(widths.sorted())")
        #expect(text.contains("…"), "later wider cells are cut")
    }

    @Test(arguments: OutputMode.allCases)
    func everyModeEscapesControlsOnATerminal(mode: OutputMode) throws {
        let db = try Self.randomDatabase(rows: 500)
        let bytes = try RenderFixture.render(
            "SELECT t, raw, b, n FROM r", on: db, options: RenderOptions(mode: mode, escapesControlCharacters: true))
        var allowed = bytes
        // csv ends its lines with CRLF and tsv separates cells with tabs: the formats' own bytes.
        if mode == .csv { allowed.removeAll { $0 == 0x0D } }
        if mode == .tsv { allowed.removeAll { $0 == 0x09 } }
        #expect(Self.firstRawControl(in: allowed) == nil, "\(mode)")
    }
}
