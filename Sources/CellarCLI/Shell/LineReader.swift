import CellarKit

/// Splits a ``ByteSource`` into lines, reading it in large pieces.
final class LineReader {
    private let source: any ByteSource
    private var buffer: [UInt8] = []
    private var start = 0
    private var isAtEnd = false

    /// Creates a reader of `source`.
    init(_ source: any ByteSource) {
        self.source = source
    }

    /// The next line without its `\n` (or `\r\n`), or nil at the end of input.
    ///
    /// - Throws: what the source throws.
    func nextLine() throws -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                let end = newline > start && buffer[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
                return String(decoding: buffer[start..<end], as: UTF8.self)
            }
            if isAtEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return String(decoding: buffer[start...], as: UTF8.self)
            }
            try fill()
        }
    }

    private func fill() throws {
        if start > 0 {
            buffer.removeSubrange(0..<start)
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
