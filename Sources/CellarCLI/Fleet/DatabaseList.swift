import CellarKit
import Glibc

/// The databases of a fleet, one at a time: every `-d` (patterns expanded as they are walked), then
/// the lines of `--databases-from`. Nothing is read ahead, so the list may be as long as it likes.
/// A path that several `-d` arguments name (`-d 'a/*' -d 'a/x*'`) is listed once; only then are the
/// paths remembered, since one pattern never names a path twice.
///
/// An entry that is no database is listed with the reason, never opened: SQLite opens an empty file
/// (an idle database's `-wal` is one) as an empty database, and migrating into a live database's
/// write-ahead log corrupts it at its next checkpoint. A pattern leaves out the `-wal`, `-shm` and
/// `-journal` files of the databases beside them (they are part of those); one named outright is refused.
final class DatabaseList: @unchecked Sendable {
    // @unchecked: a fleet's workers call next() only while holding the fleet's lock.

    /// One database of the list, or an entry that is not one, with the reason it is not opened.
    struct Entry: Equatable {
        /// The path (a name that is not UTF-8 escaped as `\xHH`, for the report).
        let path: String
        /// Why the entry is refused, or nil for a database to open.
        let problem: String?
    }

    private var arguments: [String]
    private var pattern: GlobPattern?
    private var lines: LineSource?
    private var lineNumber = 0
    /// The paths the `-d` arguments named so far, when there are several of them.
    private var named: Set<[UInt8]>?

    /// A list of `arguments` followed by the lines of `source`, if any.
    init(arguments: [String], lines source: LineSource?) {
        self.arguments = Array(arguments.reversed())
        self.lines = source
        named = arguments.count > 1 ? [] : nil
    }

    /// The next entry, or nil at the end.
    ///
    /// - Throws: ``SystemError`` when `--databases-from` cannot be read.
    func next() throws -> Entry? {
        while true {
            if let pattern {
                if let path = pattern.next() {
                    if isNamedBefore(path) || Self.mainDatabase(ofCompanion: path) != nil { continue }
                    return Self.entry(path, origin: nil)
                }
                self.pattern = nil
            }
            if let argument = arguments.popLast() {
                if GlobPattern.isPattern(argument) {
                    pattern = GlobPattern(argument)
                    continue
                }
                if isNamedBefore(Array(argument.utf8)) { continue }
                return Self.entry(Array(argument.utf8), origin: nil)
            }
            guard let lines else { return nil }
            while var line = try lines.next() {
                lineNumber += 1
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                if !line.isEmpty, line.first != UInt8(ascii: "#") { return Self.entry(line, origin: lineNumber) }
            }
            self.lines = nil
            return nil
        }
    }

    /// Whether an earlier `-d` argument named `path` already; remembers it otherwise.
    private func isNamedBefore(_ path: [UInt8]) -> Bool {
        guard named != nil else { return false }
        return named?.insert(path).inserted == false
    }

    /// `path` as an entry: refused when it is not UTF-8 (line `origin` of `--databases-from`, if it
    /// comes from there), a companion file of an existing database, or an empty file.
    static func entry(_ path: [UInt8], origin: Int?) -> Entry {
        guard let text = String(validating: path, as: UTF8.self) else {
            let place = origin.map { " (line \($0) of --databases-from)" } ?? ""
            return Entry(
                path: escaped(path),
                problem: "the name is not valid UTF-8\(place), and cellar opens only names it can print as they are; "
                    + "rename the file; it was not opened")
        }
        if let (main, role) = mainDatabase(ofCompanion: path) {
            return Entry(
                path: text,
                problem: "'\(escaped(path))' is the \(role) of the database '\(escaped(main))', not a database; it was not "
                    + "opened (name '\(escaped(main))' instead)")
        }
        var status = stat()
        if stat(text, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size == 0 {
            return Entry(
                path: text,
                problem: "'\(escaped(path))' is not a database: the file is empty (SQLite would take it for a new "
                    + "database); it was not opened")
        }
        return Entry(path: text, problem: nil)
    }

    /// The database `path` belongs to, with the file's role, when `path` is a `-wal`, `-shm` or
    /// `-journal` file beside an existing database.
    static func mainDatabase(ofCompanion path: [UInt8]) -> (main: [UInt8], role: String)? {
        let roles = [("-wal", "write-ahead log"), ("-shm", "shared-memory index"), ("-journal", "rollback journal")]
        for (suffix, role) in roles where path.count > suffix.utf8.count && path.ends(with: suffix.utf8) {
            let main = Array(path.dropLast(suffix.utf8.count))
            if GlobPattern.kind(main, following: true) == S_IFREG { return (main, role) }
        }
        return nil
    }

    private static func escaped(_ path: [UInt8]) -> String {
        var output: [UInt8] = []
        path.withUnsafeBufferPointer { ControlCharacterEscaping.escape($0, into: &output) }
        return String(decoding: output, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: String.UTF8View) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
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

    /// The next line without its `\n`, as bytes, or nil at the end.
    func next() throws -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                return Array(buffer[start..<newline])
            }
            if isAtEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return Array(buffer[start...])
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
