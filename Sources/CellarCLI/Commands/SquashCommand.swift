import CellarKit
import Glibc

/// `cellar squash --to V`: writes `migrations/checkpoint.sql`, the proved checkpoint of migrations 1…V.
enum SquashCommand: Command {
    static let to = OptionSpec("to", value: "version", help: "The last migration the checkpoint covers (required).")
    static let replace = OptionSpec("replace", help: "Replace an existing checkpoint with one that goes further.")

    static let spec = CommandSpec(
        name: "squash",
        abstract: "Write migrations/checkpoint.sql: the schema and rows migrations 1…V leave, proved, for new databases.",
        options: [to, replace],
        discussion: """
            The migrations 1…V are replayed into an in-memory database (seeds not included) and written as SQL
            with their ledger rows; a database built from that file must dump exactly as the replay does,
            or nothing is written. From then on a database with no ledger runs the checkpoint in one
            transaction and records those migrations with kind 'checkpoint'; databases at V or above never
            run it, and the files 1…V may be deleted. An existing checkpoint is replaced only with --replace,
            and only by one that covers more.
            """,
        examples: [
            .init(
                "cellar squash --to 3",
                "New databases start from what migrations 1 to 3 leave, written to migrations/checkpoint.sql."),
            .init(
                "cellar squash --to 40 --replace",
                "Move an existing checkpoint on to version 40 (the old one and the files up to 40 are replayed)."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        guard let text = invocation.arguments.value(of: Self.to) else {
            throw UsageError("'squash' needs --to V: the last migration the checkpoint covers", command: spec.name)
        }
        let version = try MigrationSession.version(text, command: spec.name)
        let session = MigrationSession(invocation)
        let files = try session.loadUsableFiles()
        let folder = invocation.configuration.migrationsDirectory
        let path = DirectoryListing.join(folder, Checkpoint.fileName)
        let replaces = invocation.arguments.has(Self.replace)
        if let existing = files.checkpoint, !replaces {
            throw CommandFailure(
                message: "\(existing.path) already exists (it covers \(existing.coverage)); give --replace to write one "
                    + "that goes further; nothing was written")
        }
        if let newest = files.migrations.last, version > newest.version {
            throw CommandFailure(
                message: "cannot squash to version \(version): the newest migration is \(newest.identifier); nothing was written")
        }
        guard files.migrations.contains(where: { $0.version == version }) else {
            throw CommandFailure(message: "no migration file has version \(version); nothing was written")
        }
        let opener = DatabaseOpener(invocation.configuration)
        let squash = try session.translating {
            try CheckpointSquash(
                migrations: files.migrations, existing: files.checkpoint, through: version, path: path,
                options: opener.options(mode: .readWriteCreate))
        }
        try write(squash.text, to: path, replacing: replaces && files.checkpoint != nil)
        let covered = squash.checkpoint.entries
        try invocation.io.printOutput(
            ControlCharacterEscaping.escape(
                "wrote \(path): \(covered.count == 1 ? "migration" : "migrations") \(squash.checkpoint.coverage) squashed "
                    + "(\(MigrationProgress.count(squash.tableCount, "table")), \(MigrationProgress.count(squash.rowCount, "row"))); "
                    + "proved: a database built from it dumps as their replay does"))
        for migration in squash.nonTransactional {
            invocation.io.printError(
                "cellar: warning: "
                    + ControlCharacterEscaping.escape(
                        "\(migration.path) runs with transaction:false: what it sets beyond the schema and the rows "
                            + "(PRAGMA journal_mode, …) is not in the checkpoint"))
        }
        let deletable = files.migrations.filter { squash.checkpoint.covers($0.version) }
        if !invocation.configuration.isQuiet, let first = deletable.first, let last = deletable.last {
            let files =
                deletable.count == 1 ? "the file \(first.identifier).sql" : "the files \(first.identifier)…\(last.identifier)"
            invocation.io.printError(
                "cellar: new databases now start from the checkpoint; "
                    + ControlCharacterEscaping.escape(
                        "\(files) may be deleted (a database below version \(squash.checkpoint.body.versionText) "
                            + "still needs the files above its version)"))
        }
        return .success
    }

    /// Writes `text` to a temporary dotfile beside `path` (ignored by the loader), then moves it into
    /// place: a failure leaves nothing behind, and an existing file is replaced only when `replacing`.
    private static func write(_ text: String, to path: String, replacing: Bool) throws {
        let temporary = DirectoryListing.join(FilePath.folder(of: path), ".\(Checkpoint.fileName).\(getpid()).tmp")
        defer { unlink(temporary) }
        do {
            try FileContents.write(Array(text.utf8), to: temporary)
        } catch let error as SystemError {
            throw CommandFailure(message: "cannot write '\(path)': \(String(cString: strerror(error.code))); nothing was written")
        }
        let moved = replacing ? rename(temporary, path) : link(temporary, path)
        guard moved == 0 else {
            throw CommandFailure(message: "cannot write '\(path)': \(String(cString: strerror(errno))); nothing was written")
        }
    }
}
