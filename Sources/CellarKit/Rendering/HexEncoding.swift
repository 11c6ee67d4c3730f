/// Lowercase hexadecimal, as machine modes write blobs.
package enum HexEncoding {
    /// The two digits of every byte value, as one little-endian 16-bit word each.
    private static let pairs: [UInt16] = (0..<256).map { byte in
        let digits = Array("0123456789abcdef".utf8)
        return UInt16(digits[byte >> 4]) | UInt16(digits[byte & 0x0F]) << 8
    }

    /// Appends two hex digits per byte of `bytes` to `output`.
    package static func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        // A piece at a time through a buffer on the stack, one table load per byte and one append per
        // piece (an append per digit checks the array's capacity and uniqueness each time).
        let piece = 128
        pairs.withUnsafeBufferPointer { pairs in
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: piece) { buffer in
                var start = 0
                while start < bytes.count {
                    let end = min(start + piece, bytes.count)
                    for index in start..<end { buffer[index - start] = pairs[Int(bytes[index])].littleEndian }
                    output.append(
                        contentsOf: UnsafeRawBufferPointer(start: buffer.baseAddress, count: (end - start) * 2))
                    start = end
                }
            }
        }
    }

    /// The lowercase hex text of `bytes`.
    package static func string(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        Array(bytes).withUnsafeBufferPointer { append($0, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }
}
