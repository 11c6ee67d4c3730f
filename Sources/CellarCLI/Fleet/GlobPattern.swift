import CellarKit
import Glibc

/// A path pattern that cellar expands itself, the same on every shell: `*`, `?` and `[…]` within one
/// path component (as `fnmatch(3)`; a leading `.` must be matched explicitly), and `**` as a whole
/// component for any number of folders, none included.
///
/// Matches stream out one at a time in sorted order, depth first: only one folder listing per level is
/// held, so a pattern matching 100,000 files costs no more memory than the largest folder.
final class GlobPattern {
    private let components: [String]
    private let root: String
    /// Paths waiting to be matched against components from `index` on, last out first.
    private var pending: [(path: String, index: Int)]

    /// Whether `text` is a pattern: it holds a pattern character, is not a `file:` URI (whose `?`
    /// starts its query) and names no existing file as it is written.
    static func isPattern(_ text: String) -> Bool {
        text.contains { $0 == "*" || $0 == "?" || $0 == "[" } && !text.hasPrefix("file:") && access(text, F_OK) != 0
    }

    init(_ pattern: String) {
        components = pattern.split(separator: "/").map(String.init).filter { $0 != "." }
        root = pattern.hasPrefix("/") ? "/" : ""
        pending = [(root, 0)]
    }

    /// The next matching file, or nil when there is none left.
    func next() -> String? {
        while let (path, index) = pending.popLast() {
            if index == components.count {
                if !path.isEmpty, !DirectoryListing.isDirectory(path), access(path, F_OK) == 0 { return path }
                continue
            }
            let component = components[index]
            if component == "**" {
                let folders = entries(of: path).filter { !$0.hasPrefix(".") && DirectoryListing.isDirectory(join(path, $0)) }
                pending += folders.reversed().map { (join(path, $0), index) }
                pending.append((path, index + 1))
            } else if Self.isPattern(component) {
                let matches = entries(of: path).filter { fnmatch(component, $0, FNM_PERIOD) == 0 }
                pending += matches.reversed().map { (join(path, $0), index + 1) }
            } else {
                pending.append((join(path, component), index + 1))
            }
        }
        return nil
    }

    /// Every name in `folder` but `.` and `..`, sorted by bytes; none when it cannot be read.
    private func entries(of folder: String) -> [String] {
        guard let handle = opendir(folder.isEmpty ? "." : folder) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    private func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder == "/" ? "/" + name : folder + "/" + name
    }
}
