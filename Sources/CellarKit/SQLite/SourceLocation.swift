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

    /// ``advanced(over:)`` on contiguous bytes, the script reader's hot path: only the bytes after the
    /// last newline are decoded; those before it are only counted as newlines.
    package func advanced(over text: UnsafeBufferPointer<UInt8>) -> SourceLocation {
        var result = self
        var lastNewline = text.count - 1
        while lastNewline >= 0, text[lastNewline] != UInt8(ascii: "\n") { lastNewline -= 1 }
        if lastNewline >= 0 {
            var newlines = 0
            for byte in UnsafeBufferPointer(rebasing: text[...lastNewline]) where byte == UInt8(ascii: "\n") { newlines += 1 }
            result.line += newlines
            result.column = 1
        }
        for byte in UnsafeBufferPointer(rebasing: text[(lastNewline + 1)...]) where byte & 0xC0 != 0x80 { result.column += 1 }
        return result
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
