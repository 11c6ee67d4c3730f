/// `json` (one array of objects, one object a line as the sqlite3 CLI writes it) and `jsonl` (one
/// object a line, no array). Blobs are base64 strings; text is always valid UTF-8 JSON, with every
/// control character, DEL and C1 code escaped, and bytes that are not UTF-8 replaced by U+FFFD.
struct JSONRowWriter: RowWriter {
    private let isLines: Bool
    private var keys: [[UInt8]] = []
    private var isFirstRow = true

    init(isLines: Bool) {
        self.isLines = isLines
    }

    mutating func begin(columns: [String], into output: inout OutputBuffer) throws {
        keys = columns.map { name in
            var key: [UInt8] = []
            var name = name
            name.withUTF8 { Self.appendString($0, to: &key) }
            key.append(UInt8(ascii: ":"))
            return key
        }
    }

    mutating func write(_ row: some CellSource, into output: inout OutputBuffer) throws {
        if !isLines { output.append(isFirstRow ? "[{" : ",\n{") } else { output.append(UInt8(ascii: "{")) }
        isFirstRow = false
        for index in 0..<row.cellCount {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(keys[index])
            switch row.storageClass(at: index) {
            case .null: output.append("null")
            case .integer: row.withBytes(at: index) { output.append($0) }
            case .real:
                let value = row.double(at: index)
                row.withBytes(at: index) { RealFormatting.append(value, sqliteText: $0, to: &output.bytes) }
            case .text: row.withBytes(at: index) { Self.appendString($0, to: &output.bytes) }
            case .blob:
                output.append(UInt8(ascii: "\""))
                row.withBytes(at: index) { Base64Encoding.append($0, to: &output.bytes) }
                output.append(UInt8(ascii: "\""))
            }
        }
        output.append(isLines ? "}\n" : "}")
    }

    mutating func end(into output: inout OutputBuffer) throws {
        if !isLines { output.append("]\n") }
    }

    /// Appends `bytes` as a JSON string.
    static func appendString(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var index = 0
        var runStart = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if byte >= 0x80, let (scalar, length) = UTF8Validation.decodeScalar(in: bytes, at: index), scalar.value > 0x9F {
                index += length
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            index += appendEscape(bytes, at: index, to: &output)
            runStart = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        output.append(UInt8(ascii: "\""))
    }

    /// Writes the escape for the character at `index` and returns how many bytes it covered.
    private static func appendEscape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, to output: inout [UInt8]) -> Int {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
        case 0x08: output.append(contentsOf: Array("\\b".utf8))
        case 0x0C: output.append(contentsOf: Array("\\f".utf8))
        case 0x0A: output.append(contentsOf: Array("\\n".utf8))
        case 0x0D: output.append(contentsOf: Array("\\r".utf8))
        case 0x09: output.append(contentsOf: Array("\\t".utf8))
        case ..<0x80: appendUnicodeEscape(UInt32(byte), to: &output)
        default:
            guard let (scalar, length) = UTF8Validation.decodeScalar(in: bytes, at: index) else {
                output.append(contentsOf: Array("\\ufffd".utf8))
                return 1
            }
            appendUnicodeEscape(scalar.value, to: &output)
            return length
        }
        return 1
    }

    private static func appendUnicodeEscape(_ value: UInt32, to output: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        output.append(contentsOf: Array("\\u".utf8))
        for shift in stride(from: 12, through: 0, by: -4) {
            output.append(digits[Int((value >> UInt32(shift)) & 0xF)])
        }
    }
}
