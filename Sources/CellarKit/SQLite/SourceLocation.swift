/// A 1-based line and column in a source text; columns count Unicode scalars, not bytes.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, counted in Unicode scalars.
    public var column: Int

    /// Creates a location from a line and a column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The location of a byte offset within UTF-8 text.
    ///
    /// An offset in the middle of a multi-byte character points at that character; an offset past the
    /// end points just after the last character.
    ///
    /// ```swift
    /// SourceLocation(byteOffset: 7, in: "a;\nbéc") // line 2, column 4
    /// ```
    public init(byteOffset: Int, in text: some Collection<UInt8>) {
        self = SourceLocation(line: 1, column: 1).advanced(over: text.prefix(max(0, byteOffset)))
    }

    /// The location of a byte offset within a string's UTF-8 form.
    public init(byteOffset: Int, in text: String) {
        self.init(byteOffset: byteOffset, in: text.utf8)
    }

    /// `line:column`, as compilers write it.
    public var description: String { "\(line):\(column)" }

    /// The location reached after reading `text` starting at this location: lines by newlines, columns
    /// by Unicode scalars (UTF-8 continuation bytes do not count). The one walker from bytes to lines and
    /// columns: error locations, and the script reader keeping its place in a stream read piece by piece.
    public func advanced(over text: some Collection<UInt8>) -> SourceLocation {
        if let result = text.withContiguousStorageIfAvailable({ advanced(over: $0) }) { return result }
        return Array(text).withUnsafeBufferPointer { advanced(over: $0) }
    }

    /// ``advanced(over:)`` on contiguous bytes, the script reader's hot path (it walks every byte of a
    /// statement once): eight bytes at a time, a word without a newline adding its scalars to the column.
    package func advanced(over text: UnsafeBufferPointer<UInt8>) -> SourceLocation {
        var result = self
        guard let base = text.baseAddress else { return result }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= text.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let newlines = Self.zeroBytes(word ^ Self.repeated(UInt8(ascii: "\n")))
            if newlines == 0 {
                // Eight ASCII bytes (the usual word) need no count of continuation bytes.
                result.column += word & Self.repeated(0x80) == 0 ? 8 : 8 - Self.continuationCount(word)
            } else {
                // One newline in a word is the usual case: no bit count for it.
                result.line += newlines & (newlines &- 1) == 0 ? 1 : newlines.nonzeroBitCount
                // The bytes after the word's last newline (its highest flagged byte: little-endian).
                let after = (63 - newlines.leadingZeroBitCount) / 8 + 1
                let rest = after == 8 ? 0 : word >> UInt64(8 * after)
                result.column = 1 + (8 - after) - (rest & Self.repeated(0x80) == 0 ? 0 : Self.continuationCount(rest))
            }
            index += 8
        }
        for byte in UnsafeBufferPointer(rebasing: text[index...]) {
            if byte == UInt8(ascii: "\n") {
                result.line += 1
                result.column = 1
            } else if byte & 0xC0 != 0x80 {
                result.column += 1
            }
        }
        return result
    }

    /// `byte` in every byte of a word.
    @inline(__always)
    private static func repeated(_ byte: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(byte) }

    /// The high bit of each zero byte of `word`, exactly (no borrow from one byte into the next).
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((word & low7) &+ low7) | word | low7)
    }

    /// How many bytes of `word` are UTF-8 continuation bytes (`10xxxxxx`), which start no scalar.
    @inline(__always)
    private static func continuationCount(_ word: UInt64) -> Int {
        (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
    }

    /// The text of a 1-based line of `text`, without its line terminator.
    public static func lineText(_ line: Int, in text: String) -> String? {
        var current = 1
        for candidate in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if current == line {
                var bytes = Array(candidate)
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
                return String(decoding: bytes, as: UTF8.self)
            }
            current += 1
        }
        return nil
    }
}
