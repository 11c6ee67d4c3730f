/// Finds the parameters of one statement's text the way SQLite numbers them
/// (<https://sqlite.org/lang_expr.html#parameters>): `?` takes the next number, `?NNN` number NNN,
/// and `:name`, `@name` or `$name` the next number the first time the name appears and the same one
/// after. dqlite does not report parameter names, so cellar reads them here.
enum ParameterScanner {
    /// The name of each parameter by number (index 0 is parameter 1), nil for `?` and `?NNN`.
    static func names(in statement: UnsafeBufferPointer<UInt8>) -> [String?] {
        var names: [String?] = []
        var index = 0
        while index < statement.count {
            let byte = statement[index]
            switch byte {
            case UInt8(ascii: "?"):
                var end = index + 1
                while end < statement.count, isDigit(statement[end]) { end += 1 }
                let number = end > index + 1 ? Int(String(decoding: statement[(index + 1)..<end], as: UTF8.self)) : nil
                let position = number ?? names.count + 1
                while names.count < position { names.append(nil) }
                index = end
            case UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "$"):
                var end = index + 1
                while end < statement.count, isNameByte(statement[end]) { end += 1 }
                let name = String(decoding: statement[index..<end], as: UTF8.self)
                if end > index + 1, !names.contains(name) { names.append(name) }
                index = end
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                index += 1
                while index < statement.count, statement[index] != close { index += 1 }
                index += 1
            case UInt8(ascii: "-"), UInt8(ascii: "/"):
                let next = StatementSplitter.firstToken(in: statement, from: index, length: statement.count)
                index = next == index ? index + 1 : next
            default:
                index += isNameByte(byte) ? skipName(statement, from: index) : 1
            }
        }
        return names
    }

    /// The length of the identifier or number at `start` (a `$` inside one is not a parameter).
    private static func skipName(_ statement: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var end = start
        while end < statement.count, isNameByte(statement[end]) || statement[end] == UInt8(ascii: "$") { end += 1 }
        return end - start
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
            || byte >= 0x80
    }
}
