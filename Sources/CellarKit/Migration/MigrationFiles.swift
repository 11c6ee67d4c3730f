/// A migrations folder as ``MigrationSource/loadReportingProblems()`` reads it: the good migrations,
/// and the files that cannot be used, each with its error.
package struct MigrationFiles: Sendable {
    /// One file that cannot be used as a migration.
    package struct Problem: Sendable {
        /// The file name, `<version>_<name>.sql` or not.
        package let fileName: String
        /// The file's path, for messages.
        package let path: String
        /// Why the file cannot be used.
        package let error: MigrationError

        /// The version the file name gives, when it fits `<version>_<name>.sql`.
        package var version: Int64? { MigrationParser.parseFileName(fileName)?.version }
    }

    /// The migrations that can be used, sorted by version, versions unique.
    package let migrations: [Migration]
    /// The files that cannot, in file-name order (files sharing a version last).
    package let problems: [Problem]
    /// The folder's `checkpoint.sql`, when it has one that can be read (one that cannot is a problem).
    package var checkpoint: Checkpoint?

    package init(migrations: [Migration], problems: [Problem], checkpoint: Checkpoint? = nil) {
        self.migrations = migrations
        self.problems = problems
        self.checkpoint = checkpoint
    }

    /// The problem of the file with `version`, if it has one.
    package func problem(version: Int64) -> Problem? {
        problems.first { $0.version == version }
    }
}

extension MigrationFiles {
    /// The migration in the file at `path` (named `<version>_<name>.sql`), read and checked, for the
    /// commands that take files by name.
    ///
    /// - Throws: ``MigrationError`` for a file that cannot be read or used.
    package static func migration(at path: String) throws(MigrationError) -> Migration {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(path)
        } catch {
            throw .invalidFile(Diagnostic(path: path, message: "cannot read the file: \(error)"))
        }
        return try MigrationParser.parse(bytes, fileName: name, path: path)
    }
}
