internal import CSQLite

/// Writes SQL identifiers as the sqlite3 CLI does in `insert` mode: bare when they are plain words
/// that are not keywords, otherwise in `"` with `"` doubled.
package enum IdentifierQuoting {
    /// `name` ready to paste into SQL.
    ///
    /// ```swift
    /// IdentifierQuoting.quote("wine")    // wine
    /// IdentifierQuoting.quote("table")   // "table"
    /// IdentifierQuoting.quote("a\"b")    // "a""b"
    /// ```
    package static func quote(_ name: String) -> String {
        if isPlain(name) { return name }
        return "\"" + name.replacing("\"", with: "\"\"") + "\""
    }

    private static func isPlain(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        guard bytes.allSatisfy({ isLetter($0) || $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) }) else { return false }
        return sqlite3_keyword_check(name, Int32(bytes.count)) == 0
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
