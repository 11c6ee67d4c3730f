import CellarKit
import Glibc

/// What the shell runs on each Tab: the cached schema of the connection, then ``CompletionEngine``.
/// `package` so that `cellar-bench` measures this very call.
package final class TabCompleter {
    private let cache = SchemaCache()
    private let listDirectory: (String) -> [CompletionEngine.FileEntry]

    /// Creates a completer that lists directories from the file system.
    package convenience init() {
        self.init(listDirectory: TabCompleter.list)
    }

    /// Creates a completer with its own directory listing (for tests).
    init(listDirectory: @escaping (String) -> [CompletionEngine.FileEntry]) {
        self.listDirectory = listDirectory
    }

    /// How many times the schema has been read (once, then once per change of `schema_version`).
    package var schemaLoadCount: Int { cache.loadCount }

    /// The candidates for the word before `cursor` (a byte offset into `line`) in `database` (a file's
    /// connection or a dqlite one: the schema is read through the engine seam).
    ///
    /// - Parameter pending: the earlier lines of the statement being typed, if any.
    package func candidates(in database: any SQLConnection, line: String, cursor: Int, pending: String = "") -> [String] {
        CompletionEngine(schema: cache.snapshot(of: database), listDirectory: listDirectory)
            .candidates(line: line, cursor: cursor, pending: pending)
    }

    /// The entries of `directory` (the working directory for `""`), for path completion.
    static func list(_ directory: String) -> [CompletionEngine.FileEntry] {
        guard let folder = opendir(directory.isEmpty ? "." : directory) else { return [] }
        defer { closedir(folder) }
        var entries: [CompletionEngine.FileEntry] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            var status = stat()
            let isDirectory =
                stat((directory.isEmpty ? "" : directory) + name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
            entries.append(CompletionEngine.FileEntry(name: name, isDirectory: isDirectory))
        }
        return entries
    }
}

@available(*, unavailable)
extension TabCompleter: Sendable {}
