import CellarKit
import Testing

@Suite struct BlobDescriptionTests {
    static func riff(_ chunk: String, _ body: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + Array(chunk.utf8) + [0, 0, 0, 0] + body
    }

    static let cases: [([UInt8], String)] = [
        ([], "<blob 0 B>"),
        (Array(0..<10), "<blob 10 B>"),
        (TinyImages.png, "<PNG 4×2, 78 B>"),
        (TinyImages.jpeg, "<JPEG 16×8, 141 B>"),
        (Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00] + Array(repeating: 0, count: 20), "<GIF 320×240, 30 B>"),
        (riff("VP8 ", [0, 0, 0, 0x9D, 0x01, 0x2A, 0x80, 0x02, 0xE0, 0x01]), "<WebP 640×480, 30 B>"),
        (riff("VP8L", [0x2F, 0x3F, 0xC0, 0x0F, 0x00]), "<WebP 64×64, 25 B>"),
        (riff("VP8X", [0, 0, 0, 0, 0x1F, 0, 0, 0x0F, 0, 0]), "<WebP 32×16, 30 B>"),
        (Array("BM".utf8) + Array(repeating: 0, count: 16) + [10, 0, 0, 0, 0xF6, 0xFF, 0xFF, 0xFF], "<BMP 10×10, 26 B>"),
        (Array("%PDF-1.7\n".utf8), "<PDF 9 B>"),
        ([0x1F, 0x8B, 0x08] + Array(repeating: 0, count: 1_258_288), "<gzip 1.2 MiB>"),
        ([0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0, count: 2_454), "<zip 2.4 KiB>"),
        (Array("SQLite format 3\0".utf8) + Array(repeating: 0, count: 4_080), "<SQLite database 4.0 KiB>"),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0x00], "<JPEG 5 B>"),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00], "<PNG 9 B>"),
    ]

    @Test(arguments: cases)
    func describesBlob(bytes: [UInt8], expected: String) {
        #expect(BlobDescription.text(of: bytes) == expected)
    }

    @Test(arguments: [
        (0, "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (2458, "2.4 KiB"), (1_048_524, "1023.9 KiB"),
        (1_048_575, "1.0 MiB"), (1_258_291, "1.2 MiB"), (3 * 1_073_741_824, "3.0 GiB"),
    ])
    func sizesUseBinaryUnitsWithOneDecimal(count: Int, expected: String) {
        #expect(ByteSize.text(count) == expected)
    }
}
