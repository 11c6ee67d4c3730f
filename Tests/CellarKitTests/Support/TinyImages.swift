/// Small but valid image files built byte by byte, so blob detection is tested on real formats.
enum TinyImages {
    /// A 4×2 8-bit greyscale PNG (78 bytes): signature, IHDR, one IDAT with a stored deflate block, IEND.
    static var png: [UInt8] {
        let rows: [UInt8] = [0, 10, 20, 30, 40, 0, 50, 60, 70, 80]
        let length = UInt16(rows.count)
        var zlib: [UInt8] = [
            0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8),
        ]
        zlib += rows + bigEndian(adler32(rows))
        let header = bigEndian(4) + bigEndian(2) + [8, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    /// A 16×8 greyscale baseline JPEG (141 bytes): flat quantisation, one-code Huffman tables, two
    /// blocks whose coefficients are all zero.
    static var jpeg: [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + Array(repeating: 1, count: 64)
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00]
        for tableClass: UInt8 in [0x00, 0x10] {
            bytes += [0xFF, 0xC4, 0x00, 0x14, tableClass, 0x01] + Array(repeating: 0, count: 15) + [0x00]
        }
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        bytes += [0x0F, 0xFF, 0xD9]
        return bytes
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}
