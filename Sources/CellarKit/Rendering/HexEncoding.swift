/// Lowercase hexadecimal, as machine modes write blobs.
package enum HexEncoding {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Appends two hex digits per byte of `bytes` to `output`.
    package static func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.reserveCapacity(output.count + bytes.count * 2)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
    }

    /// The lowercase hex text of `bytes`.
    package static func string(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        Array(bytes).withUnsafeBufferPointer { append($0, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }
}
