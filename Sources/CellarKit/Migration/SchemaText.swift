/// `CREATE` statements reduced to what they mean, so that two schemas compare equal when they differ
/// only in whitespace, comments, the case of keywords and identifiers, or identifier quoting
/// (`"wine"`, `[wine]`, `` `wine` `` and `wine` are one name in SQLite).
enum SchemaText {
    /// The tokens of `sql`, lowercased outside string literals, joined by single spaces.
    ///
    /// ```swift
    /// SchemaText.normalized("CREATE  TABLE \"Wine\"(id INTEGER) -- note")   // create table wine ( id integer )
    /// ```
    static func normalized(_ sql: String) -> String {
        var tokens: [String] = []
        let bytes = Array(sql.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
                index += 1
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index < bytes.count, !(bytes[index - 1] == UInt8(ascii: "*") && bytes[index] == UInt8(ascii: "/")) {
                    index += 1
                }
                index += 1
            case UInt8(ascii: "'"):
                let end = quotedEnd(bytes, from: index, closing: byte)
                tokens.append(String(decoding: bytes[index..<end], as: UTF8.self))
                index = end
            case UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
                let closing = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                let end = quotedEnd(bytes, from: index, closing: closing)
                let inner = bytes[(index + 1)..<max(index + 1, end - 1)]
                let doubled = [closing, closing]
                var name = String(decoding: inner, as: UTF8.self)
                if closing != UInt8(ascii: "]") {
                    name = name.replacing(
                        String(decoding: doubled, as: UTF8.self), with: String(decoding: [closing], as: UTF8.self))
                }
                tokens.append(name.lowercased())
                index = end
            default:
                if isWordByte(byte) {
                    let start = index
                    while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
                    tokens.append(String(decoding: bytes[start..<index], as: UTF8.self).lowercased())
                } else {
                    tokens.append(String(decoding: [byte], as: UTF8.self))
                    index += 1
                }
            }
        }
        while tokens.last == ";" { tokens.removeLast() }
        return tokens.joined(separator: " ")
    }

    /// The index just past the quoted token starting at `start` (a doubled closing quote stays inside).
    private static func quotedEnd(_ bytes: [UInt8], from start: Int, closing: UInt8) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == closing {
                if closing != UInt8(ascii: "]"), index + 1 < bytes.count, bytes[index + 1] == closing {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || (0x30...0x39).contains(byte)
            || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
