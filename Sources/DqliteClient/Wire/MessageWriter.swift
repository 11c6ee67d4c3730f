import Glibc

/// Builds a message body field by field, keeping every field aligned to the 8-byte word.
struct MessageWriter {
    private(set) var body: [UInt8] = []

    /// - Parameter capacity: the bytes the body is expected to take (a statement's text and a word or
    ///   two), reserved at once instead of grown to by doubling.
    init(capacity: Int = 64) {
        body.reserveCapacity(capacity)
    }

    mutating func putUInt64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            body.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    mutating func putUInt32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            body.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    mutating func putInt64(_ value: Int64) {
        putUInt64(UInt64(bitPattern: value))
    }

    mutating func putDouble(_ value: Double) {
        putUInt64(value.bitPattern)
    }

    /// A NUL-terminated UTF-8 string, padded to the word.
    /// - Throws: `DqliteError.invalidRequest` when the text holds a NUL, which the wire cannot carry.
    mutating func putString(_ value: String) throws {
        let utf8 = value.utf8
        if Self.containsNUL(utf8) {
            throw DqliteError.invalidRequest("text sent to dqlite cannot contain a NUL character")
        }
        body.append(contentsOf: utf8)
        body.append(0)
        pad()
    }

    /// A length word followed by the bytes, padded to the word.
    mutating func putBlob(_ value: [UInt8]) {
        putUInt64(UInt64(value.count))
        body.append(contentsOf: value)
        pad()
    }

    /// A parameter tuple as go-dqlite encodes it: count byte, one type byte per value, padding to the
    /// word, then each value. No parameters: nothing at all.
    /// - Throws: `DqliteError.invalidRequest` for more than 255 values (the count is one byte).
    mutating func putParameters(_ values: [DqliteValue]) throws {
        guard !values.isEmpty else { return }
        guard values.count <= 255 else {
            throw DqliteError.invalidRequest("dqlite binds at most 255 parameters per statement, not \(values.count)")
        }
        body.append(UInt8(values.count))
        for value in values {
            body.append(Self.typeCode(of: value).rawValue)
        }
        pad()
        for value in values {
            switch value {
            case .null: putUInt64(0)
            case .integer(let integer): putInt64(integer)
            case .real(let real): putDouble(real)
            case .text(let text): try putString(text)
            case .blob(let bytes): putBlob(bytes)
            }
        }
    }

    /// The whole message: header then body.
    func message(type: WireCode.Request) -> [UInt8] {
        let header = MessageHeader(bodyWords: UInt32(body.count / WireCode.wordSize), type: type.rawValue)
        var message: [UInt8] = []
        message.reserveCapacity(WireCode.wordSize + body.count)
        message.append(contentsOf: header.bytes)
        message.append(contentsOf: body)
        return message
    }

    /// Whether the text holds a NUL byte, found by `memchr` in its contiguous UTF-8.
    private static func containsNUL(_ utf8: String.UTF8View) -> Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        } ?? utf8.contains(0)
    }

    private mutating func pad() {
        let trailing = body.count % WireCode.wordSize
        if trailing != 0 {
            body.append(contentsOf: repeatElement(0, count: WireCode.wordSize - trailing))
        }
    }

    private static func typeCode(of value: DqliteValue) -> WireCode.ValueType {
        switch value {
        case .null: .null
        case .integer: .integer
        case .real: .float
        case .text: .text
        case .blob: .blob
        }
    }
}
