import CellarKit

/// The table every golden test renders: each storage class, wide and combining characters, emoji,
/// control characters, blobs of 0 and 10 bytes, a PNG, a JPEG and NULLs.
enum RenderFixture {
    static let text = "a\nb\tc\u{1B}[31m"

    static func database() throws -> Database {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE f(id INTEGER, price REAL, name TEXT, data BLOB)")
        let rows: [[(any ValueConvertible)?]] = [
            [1, 42.0, "日本語", Value.blob([])],
            [-7, 0.1 + 0.2, "cafe\u{301}", Value.blob(Array(0..<10))],
            [3, 1.5, "🍷 wine", Value.blob(TinyImages.png)],
            [nil, nil, text, Value.blob(TinyImages.jpeg)],
            [5, -2.5, nil, nil],
        ]
        let insert = try db.prepare("INSERT INTO f VALUES (?, ?, ?, ?)")
        for row in rows {
            for (index, value) in row.enumerated() { try insert.bind(value, at: index + 1) }
            try insert.run()
            try insert.reset()
        }
        return db
    }

    /// Renders `sql` on `db` in `options` and returns the bytes written.
    static func render(_ sql: String, on db: Database, options: RenderOptions) throws -> [UInt8] {
        let sink = BufferSink()
        let renderer = ResultRenderer(sink: sink, options: options)
        try renderer.render(try db.prepare(sql))
        try renderer.flush()
        return sink.bytes
    }

    /// Renders the fixture table in `mode`.
    static func render(_ mode: OutputMode, escaping: Bool = false) throws -> String {
        let bytes = try render(
            "SELECT * FROM f", on: try database(), options: RenderOptions(mode: mode, escapesControlCharacters: escaping))
        return String(decoding: bytes, as: UTF8.self)
    }
}
