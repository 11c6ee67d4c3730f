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
        var line = 1
        var column = 1
        var index = 0
        for byte in text {
            if index >= byteOffset { break }
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        self.init(line: line, column: column)
    }

    /// The location of a byte offset within a string's UTF-8 form.
    public init(byteOffset: Int, in text: String) {
        self.init(byteOffset: byteOffset, in: text.utf8)
    }

    /// `line:column`, as compilers write it.
    public var description: String { "\(line):\(column)" }

    /// The location reached after reading `text` starting at this location.
    ///
    /// Used to keep track of positions in a stream read piece by piece.
    public func advanced(over text: some Collection<UInt8>) -> SourceLocation {
        var result = self
        for byte in text {
            if byte == UInt8(ascii: "\n") {
                result.line += 1
                result.column = 1
            } else if byte & 0xC0 != 0x80 {
                result.column += 1
            }
        }
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
