import CellarKit
import Glibc

/// `cellar lint`: checks migrations before they run, against the schema their predecessors build,
/// and changes nothing.
enum LintCommand: Command {
    static let all = OptionSpec("all", help: "Check every migration, applied or not.")
    static let minSQLite = OptionSpec(
        "min-sqlite", value: "version", help: "The oldest SQLite the migrations must run on, X.Y.Z (default: the linked SQLite).")
    static let strict = OptionSpec("strict", help: "Exit 1 on a warning too.")
    static let format = OptionSpec(
        "format", value: "format", completion: .choices(["text", "json", "sarif"]),
        help: "text (default), json, or sarif (SARIF 2.1.0, for code review tools).")
    static let against = OptionSpec(
        "against", value: "database",
        help: "Read row counts from this database (read only) to warn about long locks on big tables.")

    static let spec = CommandSpec(
        name: "lint", cluster: .runs,
        abstract: "Check migrations before they run: what each would lose, and SQLite's hazards. Changes nothing.",
        arguments: [
            .init("file", help: "Migration files to check (default: the pending migrations).", optional: true, repeatable: true)
        ],
        options: [all, minSQLite, strict, format, against],
        discussion: """
            Each migration is replayed in memory on the schema its predecessors build; each statement is
            prepared under SQLite's authorizer, which records what it would do, and the schema it leaves is
            compared with the one before. Rules: lost-object, destructive, fk-on, pragma-noop, needs-sqlite,
            not-atomic, big-table (with --against), and SQLite's own errors. A comment
            '-- cellar:allow RULE' on the line before a statement silences RULE there; before the first
            statement, for the whole file. Exit 1 if there is an error (with --strict, a warning too).
            """,
        examples: [
            .init("cellar lint", "Check the pending migrations against the schema the applied ones build."),
            .init("cellar lint --all --min-sqlite 3.31.0", "Check every migration, for deployments linking SQLite 3.31."),
            .init(
                "cellar lint migrations/0042_rebuild_media.sql --against prod-copy.sqlite",
                "Check one file, warning about long locks on the tables of a copy of production."),
            .init("cellar lint --format sarif > lint.sarif", "Write SARIF 2.1.0 for a code review tool."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let arguments = invocation.arguments
        let format = arguments.value(of: Self.format) ?? "text"
        guard ["text", "json", "sarif"].contains(format) else {
            throw UsageError("option '--format' expects text, json or sarif, not '\(format)'", command: spec.name)
        }
        var options = LintOptions()
        if let text = arguments.value(of: Self.minSQLite) {
            guard let version = SQLiteVersion(text) else {
                throw UsageError("option '--min-sqlite' expects a version such as 3.35.0, not '\(text)'", command: spec.name)
            }
            options.minimumSQLite = version
        }
        if arguments.has(Self.all) && !arguments.positionals.isEmpty {
            throw UsageError("--all checks every migration; name files or give --all, not both", command: spec.name)
        }
        let session = MigrationSession(invocation)
        let files = try session.loadMigrationFiles()
        let targets = try self.targets(invocation, files: files, session: session)
        if let against = arguments.value(of: Self.against) {
            options.rowCounts = try rowCounts(of: against, invocation: invocation)
        }
        let opener = DatabaseOpener(invocation.configuration)
        let replay = try SchemaReplay(migrations: files.migrations, options: opener.options(mode: .readWriteCreate))
            .makeDatabase()
        let report = try session.translating {
            try MigrationLinter(replay: replay, options: options).lint(
                targets, history: files.migrations, checkpoint: files.checkpoint)
        }
        let output = LintOutput(report: report)
        switch format {
        case "json": try invocation.io.output.write(output.json())
        case "sarif": try invocation.io.output.write(output.sarif())
        default:
            try invocation.io.output.write(
                output.text(usesColor: invocation.io.isOutputTerminal && invocation.configuration.usesColor))
            if let stopped = report.stoppedAt {
                invocation.io.printError(
                    "cellar: "
                        + ControlCharacterEscaping.escape(
                            "lint stopped at \(stopped.path): the migrations after it are read against the schema it builds"))
            }
            if !invocation.configuration.isQuiet { invocation.io.printError("cellar: \(output.summary)") }
        }
        let fails = report.hasErrors || (arguments.has(Self.strict) && !report.findings.isEmpty)
        return fails ? .failure : .success
    }

    /// The named files, every migration (`--all`), or the pending ones.
    private static func targets(_ invocation: Invocation, files: MigrationFiles, session: MigrationSession) throws
        -> [Migration]
    {
        let arguments = invocation.arguments
        if !arguments.positionals.isEmpty {
            return try arguments.positionals.map { path in
                try session.translating { try MigrationFiles.migration(at: path) }
            }
        }
        if let problem = files.problems.first { try session.translating { throw problem.error } }
        if arguments.has(Self.all) { return files.migrations }
        return try session.withReadableConnection { database in
            try session.translating {
                try Migrator(connection: database, migrations: files.migrations, checkpoint: files.checkpoint)
                    .pending(.init(allowsOutOfOrder: true)).filter { !$0.isCheckpoint }
            }
        }
    }

    /// Rows per table of the database at `path`, opened read-only and left as it was.
    static func rowCounts(of path: String, invocation: Invocation) throws -> [String: Int] {
        guard !path.hasPrefix("dqlite:") else {
            throw CommandFailure(message: "--against needs a database file: a dqlite cluster's row counts are not read")
        }
        guard access(path, F_OK) == 0 else { throw CommandFailure(message: "no database at '\(path)'") }
        let database = try DatabaseOpener(invocation.configuration).openForRehearsal(at: path)
        return try TableRowCounts.read(database)
    }
}
