/// Strict UTF-8 decoding of one scalar at a time, for callers that must report or escape the exact
/// bytes of an invalid sequence.
package enum UTF8Validation {
    /// Decodes the scalar starting at `index`.
    ///
    /// - Returns: the scalar and its length in bytes, or nil when the bytes at `index` do not start a
    ///   valid, shortest-form UTF-8 sequence (surrogates and values above U+10FFFF are invalid).
    package static func decodeScalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF:
            length = 2
            value = UInt32(lead & 0x1F)
        case 0xE0...0xEF:
            length = 3
            value = UInt32(lead & 0x0F)
        case 0xF0...0xF4:
            length = 4
            value = UInt32(lead & 0x07)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let continuation = bytes[index + offset]
            guard continuation & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// The byte offset of the first byte that is not part of valid UTF-8, or nil when all of it is valid.
    package static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            guard let (_, length) = decodeScalar(in: bytes, at: index) else { return index }
            index += length
        }
        return nil
    }
}
