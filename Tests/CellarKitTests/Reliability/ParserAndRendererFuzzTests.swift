import CellarKit
import TestSupport
import Testing

/// Random and mutated migration files, file names and result values: the parser and the renderer
/// never crash or hang, parser failures are located errors, and human output holds no raw control byte.
@Suite struct ParserAndRendererFuzzTests {
    private static let lines = [
        "-- migrate:up", "-- migrate:down", "-- migrate:up transaction:false", "-- migrate:up transaction:maybe", "--migrate:up",
        "CREATE TABLE t(a);", "DROP TABLE t;", "SELECT 'a;b';", "", "   ", "/* -- migrate:down */", "-- note", "\r", "é🍷",
    ]

    @Test func randomMigrationFilesParseOrFailWithALocatedMessage() {
        var generator = SeededGenerator(seed: 0x9A25E)
        var parsed = 0
        for _ in 0..<Soak.count(suite: 20_000, soak: 1_000_000) {
            let lineCount = Int.random(in: 0...8, using: &generator)
            var bytes = Array(
                (0..<lineCount).map { _ in Self.lines.randomElement(using: &generator)! }.joined(separator: "\n").utf8)
            if !bytes.isEmpty, Bool.random(using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                let migration = try MigrationParser.parse(bytes, fileName: "0001_fuzz.sql", path: "0001_fuzz.sql")
                #expect(migration.version == 1)
                #expect(migration.up.sql.utf8.count <= bytes.count)
                parsed += 1
            } catch {
                #expect(!error.description.isEmpty)
                if let diagnostic = error.diagnostic { #expect(diagnostic.path == "0001_fuzz.sql") }
            }
        }
        #expect(parsed > 100)
    }

    @Test func randomFileNamesAreAcceptedOnlyInTheDocumentedShape() {
        var generator = SeededGenerator(seed: 0xF11E)
        let alphabet = Array("0123456789_-.aZé sql/")
        var accepted = 0
        for _ in 0..<Soak.count(suite: 20_000, soak: 1_000_000) {
            let name =
                String((0..<Int.random(in: 0...16, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
                + (Bool.random(using: &generator) ? ".sql" : "")
            guard let parsed = MigrationParser.parseFileName(name) else { continue }
            accepted += 1
            #expect(parsed.version > 0, "\(name)")
            #expect(name.hasSuffix(".sql") && name.hasPrefix(parsed.versionText + "_"), "\(name)")
            #expect(
                parsed.name.unicodeScalars.allSatisfy {
                    $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
                }, "\(name)")
        }
        #expect(accepted > 20)
    }

    @Test func mutatedImageHeadersAreDescribedWithoutControlBytes() {
        var generator = SeededGenerator(seed: 0x1FA6)
        let headers: [[UInt8]] = [
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 64, 0, 0, 0, 48],
            [0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, 0, 48, 0, 64], Array("GIF89a".utf8) + [64, 0, 48, 0],
            Array("RIFF\0\0\0\0WEBPVP8X".utf8),
            Array("BM".utf8) + Array(repeating: 0, count: 24), Array("%PDF-1.7".utf8), [0x1F, 0x8B, 8],
            Array("PK\u{3}\u{4}".utf8),
            Array("SQLite format 3\0".utf8) + [0x10, 0],
        ]
        for _ in 0..<Soak.count(suite: 20_000, soak: 1_000_000) {
            var bytes = headers.randomElement(using: &generator)!
            bytes += (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let text = BlobDescription.text(of: bytes)
            #expect(text.hasPrefix("<") && text.hasSuffix(">"), "\(bytes)")
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(bytes)")
        }
    }

    @Test(arguments: [OutputMode.box, .table, .markdown, .line])
    func randomValuesThroughHumanModesNeverEmitControlBytes(mode: OutputMode) throws {
        var generator = SeededGenerator(seed: 0xB0C5)
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t(a, b)")
        let insert = try database.prepare("INSERT INTO t VALUES (?, ?)")
        for _ in 0..<Soak.count(suite: 5_000, soak: 250_000) {
            for index in 1...2 {
                let bytes = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
                let value: Value =
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: .blob(bytes)
                    case 1: .text(String(decoding: bytes, as: UTF8.self))
                    case 2: .real(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)))
                    default: .null
                    }
                try insert.bind(value, at: index)
            }
            try insert.run()
            try insert.reset()
        }
        let sink = BufferSink()
        let renderer = ResultRenderer(sink: sink, options: RenderOptions(mode: mode, escapesControlCharacters: true))
        try renderer.render(try database.prepare("SELECT a, b, CAST(b AS TEXT) FROM t"))
        try renderer.flush()
        #expect(!sink.bytes.contains { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F })
        #expect(sink.bytes.count > 10_000)
    }
}

/// Collects rendered bytes.
private final class BufferSink: ByteSink {
    private(set) var bytes: [UInt8] = []
    func write(_ bytes: UnsafeRawBufferPointer) throws { self.bytes.append(contentsOf: bytes) }
}
