import CellarKit
import Foundation
import Testing

/// Machine modes are lossless: what csv, json and insert write reads back as the same values, blobs
/// byte for byte and reals bit for bit.
@Suite struct RenderingRoundTripTests {
    /// A table of random rows (plus the fixture's), in every storage class.
    static func randomDatabase(rows: Int = 300) throws -> Database {
        let db = try RenderFixture.database()
        var generator = SeededGenerator(seed: 42)
        let insert = try db.prepare("INSERT INTO f VALUES (?, ?, ?, ?)")
        for _ in 0..<rows {
            try insert.bind(Int64.random(in: .min ... .max, using: &generator), at: 1)
            try insert.bind(RandomValues.real(&generator), at: 2)
            try insert.bind(RandomValues.text(&generator), at: 3)
            try insert.bind(Value.blob(RandomValues.bytes(&generator)), at: 4)
            try insert.run()
            try insert.reset()
        }
        try db.execute("INSERT INTO f VALUES (0, 1e300, 'it''s \"quoted\", with, commas' || char(13) || char(10), x'00')")
        try db.execute("INSERT INTO f VALUES (9223372036854775807, 5e-324, '\\n literally', x'ff')")
        return db
    }

    static func values(_ db: Database) throws -> [[Value]] {
        try db.query("SELECT id, price, name, data FROM f ORDER BY rowid").map(\.values)
    }

    @Test func insertOutputRunIntoAFreshDatabaseGivesTheSameRows() throws {
        let source = try Self.randomDatabase()
        let options = RenderOptions(mode: .insert, showsHeaders: true, insertTableName: "f")
        let script = try RenderFixture.render("SELECT * FROM f", on: source, options: options)
        let copy = try Database(path: ":memory:")
        try copy.execute("CREATE TABLE f(id INTEGER, price REAL, name TEXT, data BLOB)")
        try ScriptRunner(database: copy).run(BufferSource(script), path: "insert.sql")
        #expect(try Self.values(copy) == Self.values(source))
        let typesAndBytes =
            "SELECT typeof(id), typeof(price), typeof(name), hex(name), typeof(data), hex(data) FROM f ORDER BY rowid"
        #expect(try copy.query(typesAndBytes).map(\.values) == source.query(typesAndBytes).map(\.values))
    }

    /// One fixture row as JSON has it.
    struct JSONRow: Decodable, Equatable {
        let id: Int64?
        let price: Double?
        let name: String?
        let data: String?
    }

    @Test(arguments: [OutputMode.json, .jsonl])
    func jsonOutputParsesBackToTheSameValues(mode: OutputMode) throws {
        let source = try Self.randomDatabase()
        let bytes = try RenderFixture.render("SELECT * FROM f", on: source, options: RenderOptions(mode: mode))
        #expect(String(validating: bytes, as: UTF8.self) != nil, "JSON must be valid UTF-8")
        let rows: [JSONRow]
        if mode == .json {
            rows = try JSONDecoder().decode([JSONRow].self, from: Data(bytes))
        } else {
            rows = try bytes.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(JSONRow.self, from: Data($0)) }
        }
        let expected = try Self.values(source).map { row in
            JSONRow(
                id: FixtureValue.integer(row[0]), price: FixtureValue.real(row[1]), name: FixtureValue.text(row[2]),
                data: FixtureValue.blob(row[3]).map { Data($0).base64EncodedString() })
        }
        #expect(rows == expected)
    }

    @Test func csvOutputParsesBackToTheSameValues() throws {
        let source = try Self.randomDatabase()
        let bytes = try RenderFixture.render("SELECT * FROM f", on: source, options: RenderOptions(mode: .csv))
        let records = CSVParser.parse(bytes)
        let expected = try source.query("SELECT id, price, name, data, typeof(data) FROM f ORDER BY rowid").map(\.values)
        #expect(records.count == expected.count)
        for (record, row) in zip(records, expected) {
            #expect(record.count == 4)
            #expect(record[0] == (row[0] == .null ? [] : Array(Self.text(row[0]).utf8)))
            if case .real(let price) = row[1] {
                #expect(Double(String(decoding: record[1], as: UTF8.self)) == price)
            }
            if case .blob(let blob) = row[3] {
                #expect(String(decoding: record[3], as: UTF8.self) == HexEncoding.string(blob))
            }
        }
        let names = try source.query("SELECT hex(name) FROM f ORDER BY rowid").map(\.values)
        for (record, name) in zip(records, names) {
            #expect(HexEncoding.string(record[2]).uppercased() == Self.text(name[0]))
        }
    }

    private static func text(_ value: Value) -> String {
        switch value {
        case .integer(let integer): "\(integer)"
        case .text(let text): text
        default: ""
        }
    }
}

/// Reads RFC 4180 CSV (CRLF records, `"` quoting) into the raw bytes of each field.
enum CSVParser {
    static func parse(_ bytes: [UInt8]) -> [[[UInt8]]] {
        var records: [[[UInt8]]] = []
        var record: [[UInt8]] = []
        var field: [UInt8] = []
        var index = 0
        var isQuoted = false
        while index < bytes.count {
            let byte = bytes[index]
            if isQuoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        isQuoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") {
                isQuoted = true
            } else if byte == UInt8(ascii: ",") {
                record.append(field)
                field = []
            } else if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                record.append(field)
                records.append(record)
                record = []
                field = []
                index += 1
            } else {
                field.append(byte)
            }
            index += 1
        }
        return records
    }
}
