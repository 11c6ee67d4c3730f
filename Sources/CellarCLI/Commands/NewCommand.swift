import CellarKit
import Glibc

/// `cellar new NAME`: creates the next migration file with up and down sections.
enum NewCommand: Command {
    static let spec = CommandSpec(
        name: "new",
        abstract: "Create migrations/NNNN_name.sql (next number, at least 4 digits) with up and down sections.",
        arguments: [.init("name", help: "Letters, digits, _ and -.")],
        options: [
            OptionSpec("timestamp", help: "Use the UTC time YYYYMMDDHHMMSS as the version instead."),
            OptionSpec(
                "from-schema",
                help: "Write the up section as the proved plan from the migrations to the schema file, the down as the plan back."
            ),
        ] + SchemaSources.options,
        discussion: """
            With --from-schema, --rename and --allow-drop govern the up section; the down section may drop what
            the up created, and its first comment names each table and column it drops with its data. No
            difference between the migrations and the schema file: an error, nothing written.
            """,
        examples: [
            .init(
                "cellar new create_notes", "Write migrations/NNNN_create_notes.sql (the next number) with up and down sections."),
            .init("cellar new add_tags --timestamp", "Number it with the UTC time instead (20261129120000_add_tags.sql)."),
            .init(
                "cellar new retype_rating --from-schema",
                "Write the proved plan from what the migrations build to schema.sql, with the plan back as its down section."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let name = invocation.arguments.positionals[0]
        guard MigrationParser.parseFileName("1_\(name).sql") != nil else {
            throw UsageError("'\(name)' is not a migration name (letters, digits, _ and - only)", command: spec.name)
        }
        let contents =
            invocation.arguments.has("from-schema") ? try planned(invocation) : MigrationTemplate.text
        let folder = invocation.configuration.migrationsDirectory
        let taken = try takenVersions(in: folder)
        let version = invocation.arguments.has("timestamp") ? try freeTimestamp(avoiding: taken) : try nextVersion(after: taken)
        makeFolders(folder)
        let path = DirectoryListing.join(folder, "\(version)_\(name).sql")
        try create(path, contents: contents)
        try invocation.io.printOutput(ControlCharacterEscaping.escape(path))
        return .success
    }

    /// The migration from what the migrations folder builds to the schema file: the up section the
    /// plan there, the down section the plan back, both proved.
    private static func planned(_ invocation: Invocation) throws -> String {
        let sources = SchemaSources(invocation, command: spec.name)
        let options = try sources.plannerOptions()
        let current = try sources.replayMigrations()
        let desired = try sources.load(sources.schemaFile)
        let up = try sources.plan(from: current, to: desired, options: options)
        guard !up.isEmpty else {
            throw CommandFailure(
                message:
                    "the migrations already build the schema in '\(sources.schemaFile)': no migration to write, nothing written")
        }
        let down = try sources.plan(
            from: desired, to: current,
            options: SchemaPlanner.Options(renames: SchemaRename.undoing(options.renames), allowsDrop: true))
        let dropped = down.droppedTables.map { "table \($0)" } + down.droppedColumns.map { "column \($0)" }
        let warning =
            dropped.isEmpty
            ? "" : "-- Drops, with the data in them: \(ControlCharacterEscaping.escape(dropped.joined(separator: ", "))).\n"
        return "-- migrate:up\n\(up.sql)\n-- migrate:down\n\(warning)\(down.sql)"
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
