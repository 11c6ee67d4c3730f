/// `quote` (SQL literals separated by commas) and `insert` (`INSERT INTO "table" VALUES(…);`), as the
/// sqlite3 CLI writes them: text in `'…'` with `'` doubled, blobs as `X'…'`, `NULL`, reals that read
/// back to the same double. In `insert` mode, text holding a newline or carriage return is written
/// as `replace('a\nb','\n',char(10))` so each statement stays on one line. Text that holds a NUL or
/// is not valid UTF-8 (which no SQL string literal can carry) is written `CAST(X'…' AS TEXT)`.
struct SQLLiteralRowWriter: RowWriter {
    private let isInsert: Bool
    private let showsHeaders: Bool
    private let text: MachineText
    private let tableName: String
    private let keepsNewlines: Bool
    private var prefix: [UInt8] = []

    init(isInsert: Bool, options: RenderOptions) {
        self.isInsert = isInsert
        self.showsHeaders = options.resolvedShowsHeaders
        self.text = MachineText(escapesControlCharacters: options.escapesControlCharacters)
        self.tableName = options.insertTableName
        self.keepsNewlines = options.insertKeepsNewlines
    }

    mutating func begin(columns: [String], into output: inout OutputBuffer) throws {
        if isInsert {
            var statement = "INSERT INTO " + IdentifierQuoting.quote(tableName)
            if showsHeaders { statement += "(" + columns.map(IdentifierQuoting.quote).joined(separator: ",") + ")" }
            statement += " VALUES("
            text.append(statement, to: &prefix)
        } else if showsHeaders {
            for (index, name) in columns.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                var name = name
                name.withUTF8 { appendString($0, to: &output.bytes) }
            }
            output.append(UInt8(ascii: "\n"))
        }
    }

    mutating func write(_ row: some CellSource, into output: inout OutputBuffer) throws {
        output.append(prefix)
        for index in 0..<row.cellCount {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            switch row.storageClass(at: index) {
            case .null: output.append("NULL")
            case .integer: IntegerText.append(row.int64(at: index), to: &output.bytes)
            case .real:
                let value = row.double(at: index)
                if !RealFormatting.appendDecimal(value, to: &output.bytes) {
                    row.withBytes(at: index, of: .real) { RealFormatting.append(value, sqliteText: $0, to: &output.bytes) }
                }
            case .blob:
                output.append("X'")
                try row.withBytes(at: index, of: .blob) { try output.appendEncoded($0, HexEncoding.append) }
                output.append(UInt8(ascii: "'"))
            case .text:
                try row.withBytes(at: index, of: .text) { bytes in
                    if !text.escapesControlCharacters, Self.needsHexForm(bytes) {
                        output.append("CAST(X'")
                        try output.appendEncoded(bytes, HexEncoding.append)
                        output.append("' AS TEXT)")
                    } else if isInsert, !keepsNewlines, !text.escapesControlCharacters,
                        bytes.contains(where: { $0 == 0x0A || $0 == 0x0D })
                    {
                        appendReplaced(bytes, to: &output.bytes)
                    } else {
                        appendString(bytes, to: &output.bytes)
                    }
                }
            }
        }
        output.append(isInsert ? ");\n" : "\n")
    }

    mutating func end(into output: inout OutputBuffer) throws {}

    /// Whether text bytes cannot be written as a string literal: a NUL ends the SQL text, and a
    /// script that is not UTF-8 is refused.
    private static func needsHexForm(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var isASCII = true
        for byte in bytes {
            if byte == 0 { return true }
            if byte >= 0x80 { isASCII = false }
        }
        return !isASCII && UTF8Validation.firstInvalidOffset(in: bytes) != nil
    }

    /// `'…'` with `'` doubled.
    private func appendString(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "'"))
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "'") {
            text.append(UnsafeBufferPointer(rebasing: bytes[start...index]), to: &output)
            start = index
        }
        text.append(UnsafeBufferPointer(rebasing: bytes[start...]), to: &output)
        output.append(UInt8(ascii: "'"))
    }

    /// `replace(replace('a\nb\rc','\r',char(13)),'\n',char(10))`, choosing markers absent from the text.
    private func appendReplaced(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let hasNewline = bytes.contains(0x0A)
        let hasReturn = bytes.contains(0x0D)
        let newline = hasNewline ? Self.unusedMarker(in: bytes, "\\n", "\\012") : []
        let carriageReturn = hasReturn ? Self.unusedMarker(in: bytes, "\\r", "\\015") : []
        if hasNewline { output.append(contentsOf: Array("replace(".utf8)) }
        if hasReturn { output.append(contentsOf: Array("replace(".utf8)) }
        output.append(UInt8(ascii: "'"))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "'"): output.append(contentsOf: [byte, byte])
            case 0x0A: output.append(contentsOf: newline)
            case 0x0D: output.append(contentsOf: carriageReturn)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "'"))
        if hasReturn { output.append(contentsOf: Array(",'".utf8) + carriageReturn + Array("',char(13))".utf8)) }
        if hasNewline { output.append(contentsOf: Array(",'".utf8) + newline + Array("',char(10))".utf8)) }
    }

    /// The first of `first`, `second`, `(first0)`, `(first1)`, … that does not occur in `bytes`.
    private static func unusedMarker(in bytes: UnsafeBufferPointer<UInt8>, _ first: String, _ second: String) -> [UInt8] {
        let haystack = Array(bytes)
        if !contains(haystack, Array(first.utf8)) { return Array(first.utf8) }
        if !contains(haystack, Array(second.utf8)) { return Array(second.utf8) }
        var counter = 0
        while contains(haystack, Array("(\(first)\(counter))".utf8)) { counter += 1 }
        return Array("(\(first)\(counter))".utf8)
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }
}
