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

    /// The problem of the file with `version`, if it has one.
    package func problem(version: Int64) -> Problem? {
        problems.first { $0.version == version }
    }
}
