import CellarKit
import Glibc

/// A path pattern that cellar expands itself, the same on every shell: `*`, `?` and `[…]` within one
/// path component (as `fnmatch(3)`; a leading `.` must be matched explicitly), and `**` as a whole
/// component for any number of folders, none included. `**` does not descend into a symbolic link to a
/// folder (as bash's `globstar` and zsh), so a link back up the tree cannot make it loop.
///
/// Matches stream out one at a time in sorted order, depth first: only one folder listing per level is
/// held, so a pattern matching 100,000 files costs no more memory than the largest folder. Paths are
/// bytes, as the file system has them: a name that is not UTF-8 comes out as it is, for the caller to
/// name and refuse.
final class GlobPattern {
    private let components: [[UInt8]]
    /// Paths waiting to be matched against components from `index` on, last out first.
    private var pending: [(path: [UInt8], index: Int)]

    /// Whether `text` is a pattern: it holds a pattern character, is not a `file:` URI (whose `?`
    /// starts its query) and names no existing file as it is written.
    static func isPattern(_ text: String) -> Bool {
        text.contains { $0 == "*" || $0 == "?" || $0 == "[" } && !text.hasPrefix("file:") && access(text, F_OK) != 0
    }

    init(_ pattern: String) {
        components = pattern.split(separator: "/").map { Array($0.utf8) }.filter { $0 != [UInt8(ascii: ".")] }
        pending = [(pattern.hasPrefix("/") ? [UInt8(ascii: "/")] : [], 0)]
    }

    /// The next matching file, or nil when there is none left.
    func next() -> [UInt8]? {
        while let (path, index) = pending.popLast() {
            if index == components.count {
                if !path.isEmpty, let kind = Self.kind(path, following: true), kind != S_IFDIR { return path }
                continue
            }
            let component = components[index]
            if component == Array("**".utf8) {
                let folders = entries(of: path).filter {
                    $0.first != UInt8(ascii: ".") && Self.kind(join(path, $0), following: false) == S_IFDIR
                }
                pending += folders.reversed().map { (join(path, $0), index) }
                pending.append((path, index + 1))
            } else if Self.isPattern(String(decoding: component, as: UTF8.self)) {
                let matches = entries(of: path).filter { name in
                    Self.withCString(component) { pattern in Self.withCString(name) { fnmatch(pattern, $0, FNM_PERIOD) == 0 } }
                }
                pending += matches.reversed().map { (join(path, $0), index + 1) }
            } else {
                pending.append((join(path, component), index + 1))
            }
        }
        return nil
    }

    /// The file type bits (`S_IFDIR`, `S_IFREG`, …) of `path`, following a symbolic link or not; nil when
    /// it does not exist.
    static func kind(_ path: [UInt8], following: Bool) -> mode_t? {
        var status = stat()
        let found = withCString(path) { following ? stat($0, &status) : lstat($0, &status) } == 0
        return found ? status.st_mode & S_IFMT : nil
    }

    /// Calls `body` with `bytes` as a NUL-terminated C string.
    static func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    /// Every name in `folder` but `.` and `..`, sorted by bytes; none when it cannot be read.
    private func entries(of folder: [UInt8]) -> [[UInt8]] {
        guard let handle = Self.withCString(folder.isEmpty ? [UInt8(ascii: ".")] : folder, { opendir($0) }) else { return [] }
        defer { closedir(handle) }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [UInt8(ascii: ".")], name != Array("..".utf8) { names.append(name) }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    private func join(_ folder: [UInt8], _ name: [UInt8]) -> [UInt8] {
        folder.isEmpty ? name : folder == [UInt8(ascii: "/")] ? folder + name : folder + [UInt8(ascii: "/")] + name
    }
}
