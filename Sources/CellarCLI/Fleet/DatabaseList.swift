import CellarKit
import Glibc

/// The databases of a fleet, one at a time: every `-d` (patterns expanded as they are walked), then
/// the lines of `--databases-from`. Nothing is read ahead, so the list may be as long as it likes.
/// A path that several `-d` arguments name (`-d 'a/*' -d 'a/x*'`) is listed once; only then are the
/// paths remembered, since one pattern never names a path twice.
final class DatabaseList: @unchecked Sendable {
    // @unchecked: a fleet's workers call next() only while holding the fleet's lock.
    private var arguments: [String]
    private var pattern: GlobPattern?
    private var lines: LineSource?
    /// The paths the `-d` arguments named so far, when there are several of them.
    private var named: Set<String>?

    /// A list of `arguments` followed by the lines of `source`, if any.
    init(arguments: [String], lines source: LineSource?) {
        self.arguments = Array(arguments.reversed())
        self.lines = source
        named = arguments.count > 1 ? [] : nil
    }

    /// The next database path, or nil at the end.
    ///
    /// - Throws: ``SystemError`` when `--databases-from` cannot be read.
    func next() throws -> String? {
        while true {
            if let pattern {
                if let path = pattern.next() {
                    if isNamedBefore(path) { continue }
                    return path
                }
                self.pattern = nil
            }
            if let argument = arguments.popLast() {
                if GlobPattern.isPattern(argument) {
                    pattern = GlobPattern(argument)
                    continue
                }
                if isNamedBefore(argument) { continue }
                return argument
            }
            guard let lines else { return nil }
            while let line = try lines.next() {
                let path = line.hasSuffix("\r") ? String(line.dropLast()) : line
                if !path.isEmpty, !path.hasPrefix("#") { return path }
            }
            self.lines = nil
            return nil
        }
    }

    /// Whether an earlier `-d` argument named `path` already; remembers it otherwise.
    private func isNamedBefore(_ path: String) -> Bool {
        guard named != nil else { return false }
        return named?.insert(path).inserted == false
    }
}

/// Lines of a byte stream (a file or standard input), read in large chunks.
final class LineSource {
    private let source: any ByteSource
    private let ownedDescriptor: Int32?
    private var buffer: [UInt8] = []
    private var start = 0
    private var isAtEnd = false

    /// Lines of `source`; `closing` is a descriptor to close when done with it.
    init(_ source: any ByteSource, closing ownedDescriptor: Int32? = nil) {
        self.source = source
        self.ownedDescriptor = ownedDescriptor
    }

    deinit {
        if let ownedDescriptor { close(ownedDescriptor) }
    }

    /// The next line without its `\n`, or nil at the end.
    func next() throws -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                return String(decoding: buffer[start..<newline], as: UTF8.self)
            }
            if isAtEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return String(decoding: buffer[start...], as: UTF8.self)
            }
            buffer.removeFirst(start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { isAtEnd = true }
            buffer += chunk[..<count]
        }
    }
}
