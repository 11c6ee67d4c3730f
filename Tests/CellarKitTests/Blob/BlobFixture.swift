import CellarKit
import TestSupport

/// A database with a `wine` table whose rows 1 and 2 hold blobs, row 3 NULL and row 4 text.
struct BlobFixture {
    let folder = TemporaryDirectory()
    let database: Database

    init() throws {
        database = try Database(path: folder.file("blobs.db"))
        try database.execute(
            """
            CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'unnamed', label BLOB);
            INSERT INTO wine (id, name, label) VALUES (1, 'Monte Bello', X'89504E47'), (2, 'Musar', X'0102030405');
            INSERT INTO wine (id, name, label) VALUES (3, 'Bare', NULL), (4, 'Texty', 'not bytes');
            """)
    }

    /// The label of row `id`, read with SQL.
    func label(_ id: Int64) throws -> Value? {
        try database.scalar("SELECT label FROM wine WHERE id = ?", [id])
    }

    /// Stores `bytes` in row `id` through the streaming helper with `chunkSize`.
    func store(_ bytes: [UInt8], in id: Int64, chunkSize: Int = BlobHandle.defaultChunkSize) throws {
        try database.writeBlob(
            table: "wine", column: "label", rowID: id, from: BufferSource(bytes), count: bytes.count, chunkSize: chunkSize)
    }

    /// The bytes of row `id`, streamed out with `chunkSize`.
    func load(_ id: Int64, chunkSize: Int = BlobHandle.defaultChunkSize) throws -> [UInt8] {
        let sink = BufferSink()
        try database.readBlob(table: "wine", column: "label", rowID: id, to: sink, chunkSize: chunkSize)
        return sink.bytes
    }
}
