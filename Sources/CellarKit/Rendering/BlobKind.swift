/// A file format recognised from its first bytes, with an image's pixel size when the header holds it.
struct BlobKind {
    /// The format's usual name (`PNG`, `SQLite database`).
    let name: String
    /// Width and height in pixels, for images whose header gives them.
    let dimensions: (Int, Int)?

    static func detect(_ bytes: UnsafeBufferPointer<UInt8>) -> BlobKind? {
        let reader = ByteReader(bytes: bytes)
        if reader.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return BlobKind(name: "PNG", dimensions: reader.pair(reader.bigEndian32(at: 16), reader.bigEndian32(at: 20)))
        }
        if reader.starts(with: [0xFF, 0xD8, 0xFF]) {
            return BlobKind(name: "JPEG", dimensions: jpegDimensions(reader))
        }
        if reader.starts(with: Array("GIF87a".utf8)) || reader.starts(with: Array("GIF89a".utf8)) {
            return BlobKind(name: "GIF", dimensions: reader.pair(reader.littleEndian16(at: 6), reader.littleEndian16(at: 8)))
        }
        if reader.starts(with: Array("RIFF".utf8)), reader.matches(Array("WEBP".utf8), at: 8) {
            return BlobKind(name: "WebP", dimensions: webPDimensions(reader))
        }
        if reader.starts(with: Array("BM".utf8)), bytes.count >= 26 {
            // A negative height means the rows are stored top-down.
            let height = reader.littleEndian32(at: 22).map { abs(Int(Int32(truncatingIfNeeded: $0))) }
            return BlobKind(name: "BMP", dimensions: reader.pair(reader.littleEndian32(at: 18), height))
        }
        let plain: [([UInt8], String)] = [
            (Array("%PDF-".utf8), "PDF"), ([0x1F, 0x8B], "gzip"), ([0x50, 0x4B, 0x03, 0x04], "zip"),
            ([0x50, 0x4B, 0x05, 0x06], "zip"), (Array("SQLite format 3".utf8) + [0], "SQLite database"),
        ]
        for (magic, name) in plain where reader.starts(with: magic) {
            return BlobKind(name: name, dimensions: nil)
        }
        return nil
    }

    /// Walks the JPEG markers to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC), which
    /// holds the height and width.
    private static func jpegDimensions(_ reader: ByteReader) -> (Int, Int)? {
        var index = 2
        while index + 4 <= reader.bytes.count {
            guard reader.bytes[index] == 0xFF else { return nil }
            let marker = reader.bytes[index + 1]
            if marker == 0xFF {
                index += 1
                continue
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                index += 2
                continue
            }
            guard let length = reader.bigEndian16(at: index + 2) else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return reader.pair(reader.bigEndian16(at: index + 7), reader.bigEndian16(at: index + 5))
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            index += 2 + length
        }
        return nil
    }

    /// The canvas size from a WebP's first chunk: lossy `VP8 `, lossless `VP8L` or extended `VP8X`.
    private static func webPDimensions(_ reader: ByteReader) -> (Int, Int)? {
        if reader.matches(Array("VP8 ".utf8), at: 12), reader.matches([0x9D, 0x01, 0x2A], at: 23) {
            return reader.pair(
                reader.littleEndian16(at: 26).map { $0 & 0x3FFF }, reader.littleEndian16(at: 28).map { $0 & 0x3FFF })
        }
        if reader.matches(Array("VP8L".utf8), at: 12), reader.matches([0x2F], at: 20), let bits = reader.littleEndian32(at: 21) {
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        }
        if reader.matches(Array("VP8X".utf8), at: 12), let width = reader.littleEndian24(at: 24),
            let height = reader.littleEndian24(at: 27)
        {
            return (width + 1, height + 1)
        }
        return nil
    }
}

/// Bounds-checked reads of integers from the start of a blob.
private struct ByteReader {
    let bytes: UnsafeBufferPointer<UInt8>

    func starts(with magic: [UInt8]) -> Bool { matches(magic, at: 0) }

    func matches(_ magic: [UInt8], at offset: Int) -> Bool {
        guard offset + magic.count <= bytes.count else { return false }
        for (index, byte) in magic.enumerated() where bytes[offset + index] != byte { return false }
        return true
    }

    func bigEndian16(at offset: Int) -> Int? { read(offset, count: 2, bigEndian: true) }
    func bigEndian32(at offset: Int) -> Int? { read(offset, count: 4, bigEndian: true) }
    func littleEndian16(at offset: Int) -> Int? { read(offset, count: 2, bigEndian: false) }
    func littleEndian24(at offset: Int) -> Int? { read(offset, count: 3, bigEndian: false) }
    func littleEndian32(at offset: Int) -> Int? { read(offset, count: 4, bigEndian: false) }

    func pair(_ width: Int?, _ height: Int?) -> (Int, Int)? {
        guard let width, let height else { return nil }
        return (width, height)
    }

    private func read(_ offset: Int, count: Int, bigEndian: Bool) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        var value = 0
        for index in 0..<count {
            let byte = Int(bytes[offset + (bigEndian ? index : count - 1 - index)])
            value = value << 8 | byte
        }
        return value
    }
}
