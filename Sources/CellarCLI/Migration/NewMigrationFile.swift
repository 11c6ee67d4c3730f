import CellarKit
import Glibc

/// A new migration file, as `cellar new` and the shell's `.migration` write one: the next version
/// (or the UTC time), created whole or not at all, never replacing a file.
enum NewMigrationFile {
    /// Whether `name` may follow the version in a file name (letters, digits, `_` and `-`).
    static func isValidName(_ name: String) -> Bool {
        MigrationParser.parseFileName("1_\(name).sql") != nil
    }

    /// A migration written from a proved plan and the plan back: `up` as the up section, `down` as the
    /// down section, which first names each table and column it drops with its data.
    static func text(up: SchemaPlan, down: SchemaPlan) -> String {
        let dropped = down.droppedTables.map { "table \($0)" } + down.droppedColumns.map { "column \($0)" }
        let warning =
            dropped.isEmpty
            ? "" : "-- Drops, with the data in them: \(ControlCharacterEscaping.escape(dropped.joined(separator: ", "))).\n"
        return "-- migrate:up\n\(up.sql)\n-- migrate:down\n\(warning)\(down.sql)"
    }

    /// Creates `folder/VERSION_name.sql` holding `contents`, the folder (and its parents) first if
    /// missing; VERSION is the highest taken plus one, at least four digits, or with `timestamped` the
    /// UTC time `YYYYMMDDHHMMSS`.
    ///
    /// - Returns: the file's path and its version.
    /// - Throws: ``CommandFailure`` when the file cannot be created; nothing is left behind then.
    static func create(name: String, contents: String, in folder: String, timestamped: Bool) throws -> (
        path: String, version: String
    ) {
        let taken = try takenVersions(in: folder)
        let version = timestamped ? try freeTimestamp(avoiding: taken) : try nextVersion(after: taken)
        makeFolders(folder)
        let path = DirectoryListing.join(folder, "\(version)_\(name).sql")
        try create(path, contents: contents)
        return (path, version)
    }

    /// The versions the `.sql` files of `folder` already have, and those its checkpoint covers (their
    /// files may be gone); none when the folder does not exist yet.
    private static func takenVersions(in folder: String) throws -> Set<Int64> {
        let names = DirectoryListing.isDirectory(folder) ? try DirectoryListing.fileNames(in: folder) : []
        var taken = Set(names.compactMap { MigrationParser.parseFileName($0)?.version })
        if names.contains(Checkpoint.fileName) {
            let checkpoint = try MigrationSession.decoding { () throws(MigrationError) -> Checkpoint? in
                try MigrationSource.folder(folder).loadCheckpoint()
            }
            taken.formUnion(checkpoint?.entries.map { $0.version } ?? [])
        }
        return taken
    }

    /// The highest version taken plus one, zero-padded to four digits (0001 for an empty folder).
    private static func nextVersion(after taken: Set<Int64>) throws -> String {
        let highest = taken.max() ?? 0
        guard highest < Int64.max else { throw CommandFailure(message: "no version follows \(highest)") }
        return WallClock.pad(Int(highest + 1), to: 4)
    }

    /// The UTC time `YYYYMMDDHHMMSS`, moved on a second at a time while a file has that version.
    private static func freeTimestamp(avoiding taken: Set<Int64>) throws -> String {
        var secondsLater = 0
        while true {
            let stamp = WallClock.compactUTCTimestamp(secondsLater: secondsLater)
            if let version = Int64(stamp), !taken.contains(version) { return stamp }
            secondsLater += 1
        }
    }

    /// Writes `contents` to a temporary dotfile beside `path` (ignored as a migration), then links it
    /// into place: a failure such as a full disk leaves nothing behind, and an existing file is never
    /// replaced.
    private static func create(_ path: String, contents: String) throws {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = DirectoryListing.join(FilePath.folder(of: path), ".\(fileName).\(getpid()).tmp")
        defer { unlink(temporary) }
        do {
            try FileContents.write(Array(contents.utf8), to: temporary)
        } catch let error as SystemError {
            throw CommandFailure(message: "cannot create '\(path)': \(String(cString: strerror(error.code)))")
        }
        guard link(temporary, path) == 0 else {
            throw CommandFailure(message: "cannot create '\(path)': \(String(cString: strerror(errno)))")
        }
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
