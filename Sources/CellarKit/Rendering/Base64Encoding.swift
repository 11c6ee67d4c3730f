/// Standard base64 with padding (RFC 4648 §4), as json and jsonl modes write blobs.
package enum Base64Encoding {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Appends the base64 text of `bytes` to `output`.
    package static func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.reserveCapacity(output.count + (bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            appendGroup(group, characters: 4, to: &output)
            index += 3
        }
        switch bytes.count - index {
        case 1:
            appendGroup(UInt32(bytes[index]) << 16, characters: 2, to: &output)
            output.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "=")])
        case 2:
            appendGroup(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8, characters: 3, to: &output)
            output.append(UInt8(ascii: "="))
        default: break
        }
    }

    /// The base64 text of `bytes`.
    ///
    /// ```swift
    /// Base64Encoding.string([0xFF, 0x00]) // "/wA="
    /// ```
    package static func string(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        bytes.withUnsafeBufferPointer { append($0, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base64 `text`, or nil when it is not valid padded base64.
    package static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        var padding = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = alphabet.firstIndex(of: byte) else { return nil }
            values.append(UInt8(value))
        }
        guard (values.count + padding) % 4 == 0, padding <= 2 else { return nil }
        var output: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            var group: UInt32 = 0
            for (offset, value) in chunk.enumerated() { group |= UInt32(value) << (18 - 6 * offset) }
            let produced = chunk.count - 1
            for offset in 0..<produced { output.append(UInt8(truncatingIfNeeded: group >> (16 - 8 * offset))) }
            index += 4
        }
        return output
    }

    private static func appendGroup(_ group: UInt32, characters: Int, to output: inout [UInt8]) {
        for offset in 0..<characters {
            output.append(alphabet[Int((group >> (18 - 6 * offset)) & 0x3F)])
        }
    }
}
