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
            name.withUTF8 { JSONString.append($0, to: &key) }
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
            case .integer: IntegerText.append(row.int64(at: index), to: &output.bytes)
            case .real:
                let value = row.double(at: index)
                if !RealFormatting.appendDecimal(value, to: &output.bytes) {
                    row.withBytes(at: index, of: .real) { RealFormatting.append(value, sqliteText: $0, to: &output.bytes) }
                }
            case .text: row.withBytes(at: index, of: .text) { JSONString.append($0, to: &output.bytes) }
            case .blob:
                output.append(UInt8(ascii: "\""))
                try row.withBytes(at: index, of: .blob) { try output.appendEncoded($0, Base64Encoding.append) }
                output.append(UInt8(ascii: "\""))
            }
        }
        output.append(isLines ? "}\n" : "}")
    }

    mutating func end(into output: inout OutputBuffer) throws {
        if !isLines { output.append("]\n") }
    }
}
