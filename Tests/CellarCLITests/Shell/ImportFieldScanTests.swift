import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

/// `.import`'s record reader finds a field's end eight bytes at a time, in 64 KiB chunks: every byte
/// that matters (separator, quote, `\r`, `\n`, the record separator, a byte of a multi-byte UTF-8
/// character) at every offset 0…15 of a field, in the middle of a chunk and on both sides of a chunk
/// boundary, imported through the shell and compared value by value (type and bytes) with a model
/// the input was written from.
@Suite struct ImportFieldScanTests {
    let folder = TemporaryDirectory()

    /// One field as the model has it: what it is written as and what it imports as.
    enum Cell {
        /// Written bare; an empty one imports as NULL.
        case bare([UInt8])
        /// Written between quotes, inner quotes doubled; imports as this text, even empty.
        case quoted([UInt8])
        /// `count` bytes `y`, written bare (compared by length, to keep the comparison small).
        case filler(Int)
    }

    /// What ends a record.
    enum End { case lineFeed, returnLineFeed, recordSeparator, none }

    struct Format {
        let separator: UInt8
        let csv: Bool
        private var quote: UInt8 { ImportFieldScanTests.quote }
        private var lineFeed: UInt8 { ImportFieldScanTests.lineFeed }
        private var carriageReturn: UInt8 { ImportFieldScanTests.carriageReturn }

        func write(_ record: [Cell], _ end: End, into bytes: inout [UInt8]) {
            for (index, cell) in record.enumerated() {
                if index > 0 { bytes.append(separator) }
                switch cell {
                case .bare(let content): bytes += content
                case .quoted(let content):
                    bytes.append(quote)
                    for byte in content {
                        if byte == quote { bytes.append(quote) }
                        bytes.append(byte)
                    }
                    bytes.append(quote)
                case .filler(let count): bytes.append(contentsOf: [UInt8](repeating: UInt8(ascii: "y"), count: count))
                }
            }
            switch end {
            case .lineFeed: bytes.append(lineFeed)
            case .returnLineFeed: bytes += [carriageReturn, lineFeed]
            case .recordSeparator: bytes.append(0x1E)
            case .none: break
            }
        }
    }

    static let quote = UInt8(ascii: "\"")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    static func x(_ count: Int) -> [UInt8] { Array(repeating: UInt8(ascii: "x"), count: count) }

    /// Multi-byte characters of two, three and four bytes.
    static func character(_ index: Int) -> [UInt8] { Array(["é", "東", "🍷"][index % 3].utf8) }

    /// A probe: a record, its end, and the field whose content holds the byte under test.
    typealias Probe = (record: [Cell], end: End, field: Int)

    /// CSV probes (separator `separator`): the byte under test at content offset `k`.
    static func csvProbes(separator: UInt8, end: End) -> [(Int) -> Probe] {
        let a = Cell.bare([UInt8(ascii: "a")])
        let b = Cell.bare([UInt8(ascii: "b")])
        let other: End = end == .lineFeed ? .returnLineFeed : .lineFeed
        return [
            // A bare field ends at a separator at offset k (k = 0: an empty field, NULL).
            { k in ([.bare(x(k)), a, b], end, 0) },
            // A bare last field ends at `\n` or `\r\n` at offset k.
            { k in ([a, b, .bare(x(k))], .lineFeed, 2) },
            { k in ([a, b, .bare(x(k))], .returnLineFeed, 2) },
            // Empty fields around a field whose separator is at offset k.
            { k in ([.bare([]), .bare(x(k)), .bare([])], k % 2 == 0 ? .lineFeed : .returnLineFeed, 1) },
            // A multi-byte character, a quote and a lone `\r` inside a bare field are data.
            { k in ([.bare(x(k) + character(k) + x(1)), a, b], end, 0) },
            { k in ([a, k == 0 ? .quoted([quote]) : .bare(x(k) + [quote] + x(1)), b], end, 1) },
            { k in ([.bare(x(k) + [carriageReturn] + x(1)), a, b], end, 0) },
            // Inside quotes: a doubled quote, `\n`, `\r\n`, the separator, a multi-byte character.
            { k in ([.quoted(x(k) + [quote] + x(1)), a, b], end, 0) },
            { k in ([.quoted(x(k) + [lineFeed] + x(1)), a, b], end, 0) },
            { k in ([a, .quoted(x(k) + [carriageReturn, lineFeed] + x(1)), b], other, 1) },
            { k in ([.quoted(x(k) + [separator] + x(1)), a, b], end, 0) },
            { k in ([a, .quoted(x(k) + character(k) + [quote, quote]), b], end, 1) },
            // A quoted field closes at offset k, before a separator or the record's end (k = 0: "").
            { k in ([.quoted(x(k)), a, b], end, 0) },
            { k in ([a, b, .quoted(x(k))], k % 2 == 0 ? .lineFeed : .returnLineFeed, 2) },
        ]
    }

    /// `--ascii` probes: 0x1F between fields, 0x1E after records, every other byte data.
    static func asciiProbes() -> [(Int) -> Probe] {
        let a = Cell.bare([UInt8(ascii: "a")])
        let b = Cell.bare([UInt8(ascii: "b")])
        return [
            { k in ([.bare(x(k)), a, b], .recordSeparator, 0) },
            { k in ([a, b, .bare(x(k))], .recordSeparator, 2) },
            { k in ([.bare([]), .bare(x(k)), .bare([])], .recordSeparator, 1) },
            { k in ([.bare(x(k) + character(k) + x(1)), a, b], .recordSeparator, 0) },
            { k in ([.bare(x(k) + [quote] + x(1)), a, .bare(x(k) + [quote])], .recordSeparator, 0) },
            { k in ([.bare(x(k) + [lineFeed, carriageReturn] + x(1)), a, .bare(x(k) + [carriageReturn])], .recordSeparator, 0) },
        ]
    }

    static let chunkSize = 1 << 16

    /// The input and the records it holds: a header; every probe at every offset 0…15 (mid-chunk);
    /// then for each probe and each position −16…15 of its byte under test relative to a chunk
    /// boundary, a filler record that puts it there and the probe; then a last record with no end.
    static func input(_ format: Format, probes: [(Int) -> Probe], header: End, last: [Cell]) -> ([UInt8], [[Cell]]) {
        var bytes: [UInt8] = []
        var records: [[Cell]] = []
        format.write([.bare(Array("a".utf8)), .bare(Array("b".utf8)), .bare(Array("c".utf8))], header, into: &bytes)
        for probe in probes {
            for k in 0..<16 {
                let (record, end, _) = probe(k)
                format.write(record, end, into: &bytes)
                records.append(record)
            }
        }
        var boundary = chunkSize
        for (kind, probe) in probes.enumerated() {
            for position in -16...15 {
                // The field under test starts `lead` bytes before the boundary, its byte under test
                // `position` bytes after it (before it when negative); `lead` varies from 1 to 16.
                var lead = 1 + ((position + 8) * 5 + kind * 3) % 16
                lead = Swift.max(lead, -position)
                let k = position + lead
                let (record, end, field) = probe(k)
                var prefix: [UInt8] = []
                format.write(Array(record[..<field]), .none, into: &prefix)
                if field > 0 { prefix.append(format.separator) }
                if case .quoted = record[field] { prefix.append(quote) }
                let recordStart = boundary - lead - prefix.count
                let fill = recordStart - bytes.count - 3
                precondition(fill > 1000, "the filler is long")
                let filler: [Cell] = [.filler(fill), .bare([]), .bare([])]
                format.write(filler, format.csv ? .lineFeed : .recordSeparator, into: &bytes)
                records.append(filler)
                format.write(record, end, into: &bytes)
                records.append(record)
                // The generator's own check: the field's content starts `lead` bytes before the
                // boundary and its byte under test (the first that is not `x`) is `position` after it.
                precondition(bytes[(boundary - lead)..<(boundary + position)].allSatisfy { $0 == UInt8(ascii: "x") })
                precondition(bytes[boundary + position] != UInt8(ascii: "x"))
                boundary += chunkSize
            }
        }
        format.write(last, .none, into: &bytes)
        records.append(last)
        return (bytes, records)
    }

    /// What `typeof(v) || ':' || hex(v)` is for `cell` (`y*N` for a filler).
    static func expected(_ cell: Cell) -> String {
        switch cell {
        case .bare(let content) where content.isEmpty: "null:"
        case .bare(let content), .quoted(let content):
            "text:" + content.map { String($0, radix: 16, uppercase: true).leftPadded() }.joined()
        case .filler(let count): "text:y*\(count)"
        }
    }

    func check(format: Format, probes: [(Int) -> Probe], header: End, last: [Cell], import command: (String) -> String) throws {
        let (bytes, records) = Self.input(format, probes: probes, header: header, last: last)
        let file = try folder.write("in.txt", bytes: bytes)
        let database = folder.file("t.db")
        let run = InProcessRun(["shell", "-d", database], input: Array(command(file).utf8))
        #expect(run.status == 0, "\(run.error)")
        let column = { (name: String) in
            """
            typeof(\(name)) || ':' || CASE WHEN length(\(name)) > 1000 AND replace(\(name), 'y', '') = ''
            THEN 'y*' || length(\(name)) ELSE hex(\(name)) END
            """
        }
        let rows = try Database(path: database).query(
            "SELECT \(column("a")), \(column("b")), \(column("c")) FROM t ORDER BY rowid"
        ).map { row in row.values.map { value -> String in if case .text(let text) = value { text } else { "?" } } }
        let wanted = records.map { $0.map(Self.expected) }
        #expect(rows.count == wanted.count)
        let mismatches = zip(rows, wanted).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) rows differ, first: \(mismatches.prefix(3).map { "row \($0.offset): \($0.element.0) != \($0.element.1)" })"
        )
    }

    @Test func csvFieldEndsAtEveryOffsetAndAcrossChunkBoundaries() throws {
        // The header ends in \r\n; the last record is a bare field with no line end.
        try check(
            format: Format(separator: UInt8(ascii: ","), csv: true),
            probes: Self.csvProbes(separator: UInt8(ascii: ","), end: .lineFeed), header: .returnLineFeed,
            last: [.bare(Self.x(3)), .quoted([Self.lineFeed]), .bare(Self.x(9) + Self.character(2))],
            import: { ".import --csv \($0) t\n" })
    }

    @Test func asciiFieldEndsAtEveryOffsetAndAcrossChunkBoundaries() throws {
        try check(
            format: Format(separator: 0x1F, csv: false), probes: Self.asciiProbes(), header: .recordSeparator,
            last: [.bare(Self.x(1)), .bare([]), .bare(Self.x(10) + [Self.lineFeed])], import: { ".import --ascii \($0) t\n" })
    }

    @Test func tabSeparatedFieldEndsAtEveryOffsetAndAcrossChunkBoundaries() throws {
        // `.mode tabs`: fields split on tabs, quotes still honoured; the file ends in a quoted field.
        let tab = UInt8(ascii: "\t")
        try check(
            format: Format(separator: tab, csv: true), probes: Self.csvProbes(separator: tab, end: .returnLineFeed),
            header: .lineFeed, last: [.quoted([tab]), .bare([]), .quoted(Self.x(8) + [Self.quote])],
            import: { ".mode tabs\n.import \($0) t\n" })
    }
}

extension String {
    fileprivate func leftPadded() -> String { count == 1 ? "0" + self : self }
}
