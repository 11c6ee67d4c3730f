import CellarKit

/// Splits a ``ByteSource`` into lines, reading it in large pieces.
final class LineReader {
    private let source: any ByteSource
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next line break goes on: bytes before it hold none, so that a long
    /// line read in many pieces is searched once.
    private var searched = 0
    private var isAtEnd = false

    /// Creates a reader of `source`.
    init(_ source: any ByteSource) {
        self.source = source
    }

    /// A line of input: its text, or where its bytes stop being UTF-8.
    enum Line: Equatable {
        /// The line's text without its `\n` (or `\r\n`).
        case text(String)
        /// The line is not valid UTF-8 (or holds a NUL): the offending byte, the text before it, and
        /// the whole line with every bad byte and NUL replaced by U+FFFD (to find where its statement
        /// ends; it never runs).
        case invalid(byte: UInt8, prefix: String, text: String)
    }

    /// The next line, or nil at the end of input.
    ///
    /// - Throws: what the source throws.
    func nextLine() throws -> Line? {
        while true {
            if let newline = buffer[max(start, searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                let end = newline > start && buffer[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
                return Self.line(buffer[start..<end])
            }
            if isAtEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return Self.line(buffer[start...])
            }
            searched = buffer.count
            try fill()
        }
    }

    private static func line(_ bytes: ArraySlice<UInt8>) -> Line {
        let invalid =
            bytes.firstIndex(of: 0).map { $0 - bytes.startIndex }
            ?? bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0) }
        guard let invalid else { return .text(String(decoding: bytes, as: UTF8.self)) }
        let prefix = String(decoding: bytes.prefix(invalid), as: UTF8.self)
        let text = String(decoding: bytes.map { $0 == 0 ? 0xFF : $0 }, as: UTF8.self)
        return .invalid(byte: bytes[bytes.startIndex + invalid], prefix: prefix, text: text)
    }

    private func fill() throws {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            searched -= start
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
        if count == 0 {
            isAtEnd = true
        } else {
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}
