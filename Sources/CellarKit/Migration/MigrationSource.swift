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

    /// Every `.sql` file of a folder (other files and dotfiles are ignored); `checkpoint.sql` is the
    /// folder's ``Checkpoint``, not a migration.
    case folder(String)
    /// Files given directly (one named `checkpoint.sql` is the ``Checkpoint``).
    case files([File])

    /// Reads and checks every migration: names, encodings, sections and duplicate versions.
    ///
    /// - Returns: the migrations sorted by version.
    /// - Throws: ``MigrationError`` for the first problem found; nothing has run.
    public func load() throws(MigrationError) -> [Migration] {
        let files = try loadReportingProblems()
        if let problem = files.problems.first { throw problem.error }
        return files.migrations
    }

    /// Reads the source's ``Checkpoint`` (`checkpoint.sql`), if it has one.
    ///
    /// - Throws: ``MigrationError`` for a checkpoint file that cannot be read, or a missing folder.
    public func loadCheckpoint() throws(MigrationError) -> Checkpoint? {
        let files = try loadReportingProblems()
        if let problem = files.problems.first(where: { $0.fileName == Checkpoint.fileName }) { throw problem.error }
        return files.checkpoint
    }

    /// Reads every migration, setting aside the files that cannot be used instead of stopping at the
    /// first, for commands that only report (`status`, `verify`) or act on some files only.
    ///
    /// - Returns: the good migrations sorted by version, and one problem per bad file in file-name order
    ///   (files sharing a version come last, each naming the others).
    /// - Throws: ``MigrationError/missingFolder(path:)`` only.
    package func loadReportingProblems() throws(MigrationError) -> MigrationFiles {
        var migrations: [Migration] = []
        var problems: [MigrationFiles.Problem] = []
        var checkpoint: Checkpoint?
        for file in try files() {
            if file.name == Checkpoint.fileName {
                do {
                    checkpoint = try Checkpoint.parse(try file.contents.get(), path: file.path)
                } catch {
                    problems.append(MigrationFiles.Problem(fileName: file.name, path: file.path, error: error))
                }
                continue
            }
            do {
                let contents = try file.contents.get()
                migrations.append(try MigrationParser.parse(contents, fileName: file.name, path: file.path))
            } catch {
                problems.append(MigrationFiles.Problem(fileName: file.name, path: file.path, error: error))
            }
        }
        migrations.sort { $0.version < $1.version }
        var unique: [Migration] = []
        var index = 0
        while index < migrations.count {
            var end = index + 1
            while end < migrations.count, migrations[end].version == migrations[index].version { end += 1 }
            let group = Array(migrations[index..<end])
            if group.count == 1 {
                unique.append(group[0])
            } else {
                for (position, migration) in group.enumerated() {
                    var paths = group.map(\.path)
                    paths.swapAt(0, position)
                    problems.append(
                        MigrationFiles.Problem(
                            fileName: "\(migration.identifier).sql", path: migration.path,
                            error: .duplicateVersion(version: migration.version, paths: paths)))
                }
            }
            index = end
        }
        return MigrationFiles(migrations: unique, problems: problems, checkpoint: checkpoint)
    }

    private func files() throws(MigrationError) -> [(name: String, path: String, contents: Result<[UInt8], MigrationError>)] {
        switch self {
        case .files(let files):
            return files.map { ($0.name, $0.name, .success($0.contents)) }
        case .folder(let folder):
            return try Self.sqlFiles(in: folder).map { ($0.name, $0.path, $0.contents) }
        }
    }

    /// The `.sql` files of `folder` (not dotfiles), in file-name order, with their contents or why they
    /// cannot be read.
    static func sqlFiles(
        in folder: String
    ) throws(MigrationError) -> [(name: String, path: String, contents: Result<[UInt8], MigrationError>)] {
        guard DirectoryListing.isDirectory(folder) else { throw .missingFolder(path: folder) }
        let names: [String]
        do {
            names = try DirectoryListing.fileNames(in: folder).filter { $0.hasSuffix(".sql") && !$0.hasPrefix(".") }
        } catch {
            throw .missingFolder(path: folder)
        }
        return names.map { name in
            let path = DirectoryListing.join(folder, name)
            do {
                return (name, path, .success(try FileContents.read(path)))
            } catch {
                return (name, path, .failure(.invalidFile(Diagnostic(path: path, message: "cannot read the file: \(error)"))))
            }
        }
    }
}
