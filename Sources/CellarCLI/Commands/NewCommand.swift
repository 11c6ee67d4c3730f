import CellarKit
import Glibc

/// `cellar new NAME`: creates the next migration file with up and down sections.
enum NewCommand: Command {
    static let spec = CommandSpec(
        name: "new",
        abstract: "Create migrations/NNNN_name.sql (next number, at least 4 digits) with up and down sections.",
        arguments: [.init("name", help: "Letters, digits, _ and -.")],
        options: [OptionSpec("timestamp", help: "Use the UTC time YYYYMMDDHHMMSS as the version instead.")])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let name = invocation.arguments.positionals[0]
        guard MigrationParser.parseFileName("1_\(name).sql") != nil else {
            throw UsageError("'\(name)' is not a migration name (letters, digits, _ and - only)", command: spec.name)
        }
        let folder = invocation.configuration.migrationsDirectory
        let version = invocation.arguments.has("timestamp") ? WallClock.compactUTCTimestamp() : try nextVersion(in: folder)
        makeFolders(folder)
        let path = DirectoryListing.join(folder, "\(version)_\(name).sql")
        try create(path, contents: MigrationTemplate.text)
        try invocation.io.printOutput(ControlCharacterEscaping.escape(path))
        return .success
    }

    /// The highest version in `folder` plus one, zero-padded to four digits (0001 for an empty folder).
    private static func nextVersion(in folder: String) throws -> String {
        let names = DirectoryListing.isDirectory(folder) ? try DirectoryListing.fileNames(in: folder) : []
        let highest = names.compactMap { MigrationParser.parseFileName($0)?.version }.max() ?? 0
        guard highest < Int64.max else { throw CommandFailure(message: "no version follows \(highest)") }
        return WallClock.pad(Int(highest + 1), to: 4)
    }

    /// Creates `path`, refusing to replace a file that exists.
    private static func create(_ path: String, contents: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CommandFailure(message: "cannot create '\(path)': \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        try FileContents.write(Array(contents.utf8), to: path)
    }

    /// Creates `folder` and any missing parents (`mkdir -p`); a failure surfaces when the file is created.
    private static func makeFolders(_ folder: String) {
        var current = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            current += "/\(part)"
            mkdir(current, 0o755)
        }
    }
}
