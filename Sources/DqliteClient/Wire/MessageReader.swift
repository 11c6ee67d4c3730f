/// Reads a message body field by field; every read past the end is a protocol violation, never a crash.
struct MessageReader {
    private let body: [UInt8]
    private(set) var offset = 0

    init(body: [UInt8]) {
        self.body = body
    }

    /// Bytes not read yet.
    var remaining: Int { body.count - offset }

    /// The next byte, without consuming it.
    func peekByte() throws -> UInt8 {
        try need(1)
        return body[offset]
    }

    mutating func byte() throws -> UInt8 {
        try need(1)
        defer { offset += 1 }
        return body[offset]
    }

    mutating func uint64() throws -> UInt64 {
        try need(8)
        var value: UInt64 = 0
        for index in 0..<8 {
            value |= UInt64(body[offset + index]) << UInt64(8 * index)
        }
        offset += 8
        return value
    }

    mutating func uint32() throws -> UInt32 {
        try need(4)
        var value: UInt32 = 0
        for index in 0..<4 {
            value |= UInt32(body[offset + index]) << UInt32(8 * index)
        }
        offset += 4
        return value
    }

    mutating func int64() throws -> Int64 {
        Int64(bitPattern: try uint64())
    }

    mutating func double() throws -> Double {
        Double(bitPattern: try uint64())
    }

    /// A NUL-terminated string and its padding.
    mutating func string() throws -> String {
        guard let end = body[offset...].firstIndex(of: 0) else {
            throw DqliteError.protocolViolation("string without its terminating NUL")
        }
        let text = String(decoding: body[offset..<end], as: UTF8.self)
        offset = end + 1
        try skipPadding()
        return text
    }

    /// A length-prefixed blob and its padding.
    mutating func blob() throws -> [UInt8] {
        let length = try uint64()
        guard length <= UInt64(remaining) else {
            throw DqliteError.protocolViolation("blob of \(length) bytes in a body with \(remaining) left")
        }
        let bytes = Array(body[offset..<offset + Int(length)])
        offset += Int(length)
        try skipPadding()
        return bytes
    }

    /// Moves to the next word boundary.
    mutating func skipPadding() throws {
        let trailing = offset % WireCode.wordSize
        if trailing != 0 {
            let padding = WireCode.wordSize - trailing
            try need(padding)
            offset += padding
        }
    }

    private func need(_ count: Int) throws {
        if remaining < count {
            throw DqliteError.protocolViolation("message body ends \(count - remaining) bytes early")
        }
    }
}
