/// Where migrations come from: a folder of `.sql` files, or files an app bundles in memory.
///
/// ```swift
/// let source = MigrationSource.files([
///     .init(name: "0001_create_wineries.sql", text: "CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT);"),
/// ])
/// ```
public enum MigrationSource: Sendable {
    /// One file held in memory.
    public struct File: Sendable {
        /// The file name, `<version>_<name>.sql`.
        public let name: String
        /// The file's bytes.
        public let contents: [UInt8]

        /// A file from its name and bytes.
        public init(name: String, contents: [UInt8]) {
            self.name = name
            self.contents = contents
        }

        /// A file from its name and text.
        public init(name: String, text: String) {
            self.init(name: name, contents: Array(text.utf8))
        }
    }

    /// Every `.sql` file of a folder (other files and dotfiles are ignored).
    case folder(String)
    /// Files given directly.
    case files([File])

    /// Reads and checks every migration: names, encodings, sections and duplicate versions.
    ///
    /// - Returns: the migrations sorted by version.
    /// - Throws: ``MigrationError`` for the first problem found; nothing has run.
    public func load() throws(MigrationError) -> [Migration] {
        var migrations: [Migration] = []
        for file in try files() {
            migrations.append(try MigrationParser.parse(file.contents, fileName: file.name, path: file.path))
        }
        migrations.sort { $0.version < $1.version }
        var index = 0
        while index < migrations.count {
            var end = index + 1
            while end < migrations.count, migrations[end].version == migrations[index].version { end += 1 }
            if end - index > 1 {
                throw .duplicateVersion(version: migrations[index].version, paths: migrations[index..<end].map(\.path))
            }
            index = end
        }
        return migrations
    }

    private func files() throws(MigrationError) -> [(name: String, path: String, contents: [UInt8])] {
        switch self {
        case .files(let files):
            return files.map { ($0.name, $0.name, $0.contents) }
        case .folder(let folder):
            return try Self.sqlFiles(in: folder).map { ($0.name, $0.path, $0.contents) }
        }
    }

    /// The `.sql` files of `folder` (not dotfiles), in file-name order, with their contents.
    static func sqlFiles(in folder: String) throws(MigrationError) -> [(name: String, path: String, contents: [UInt8])] {
        guard DirectoryListing.isDirectory(folder) else { throw .missingFolder(path: folder) }
        let names: [String]
        do {
            names = try DirectoryListing.fileNames(in: folder).filter { $0.hasSuffix(".sql") && !$0.hasPrefix(".") }
        } catch {
            throw .missingFolder(path: folder)
        }
        var result: [(name: String, path: String, contents: [UInt8])] = []
        for name in names {
            let path = DirectoryListing.join(folder, name)
            do {
                result.append((name, path, try FileContents.read(path)))
            } catch {
                throw .invalidFile(Diagnostic(path: path, message: "cannot read the file: \(error)"))
            }
        }
        return result
    }
}
