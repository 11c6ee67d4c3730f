import CellarKit
import Glibc

/// `cellar status`: every migration and seed, applied, pending, changed or missing.
enum StatusCommand: Command {
    static let exitCode = OptionSpec("exit-code", help: "Exit 3 if anything is pending, changed or missing.")
    static let format = OptionSpec(
        "format", value: "format", completion: .choices(["text", "json"]),
        help: "text (default) or json (for a fleet: one object per database per line).")

    static let spec = CommandSpec(
        name: "status", cluster: .runs, fleet: true,
        abstract: "Show every migration and seed: applied, pending, changed or missing.",
        options: [exitCode, format] + FleetOptions.options,
        discussion: """
            A database file that does not exist yet is reported as such, with everything pending; it is
            not created (with --exit-code it is an error: no database at PATH). transaction:false
            migrations are marked: they are not atomic; comment-only ones are marked [empty]. A file that
            cannot be used is listed, marked [error: …], and status then exits 1.
            """,
        examples: [
            .init("cellar status", "List every migration and seed: applied (when, how long), pending, changed or missing."),
            .init("cellar status --exit-code", "In CI: exit 3 when anything is pending, changed or missing."),
            .init("cellar status --format json", "The same as one JSON object, for scripts."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        let format = invocation.arguments.value(of: Self.format) ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("option '--format' expects text or json, not '\(format)'", command: spec.name)
        }
        let files = try session.loadMigrationFiles()
        if invocation.arguments.has(Self.exitCode) { try session.requireExistingDatabase() }
        var report = try session.withReadableConnection { database in
            let migrator = Migrator(connection: database, migrations: files.migrations, checkpoint: files.checkpoint)
            return try session.translating {
                StatusReport(
                    databasePath: invocation.configuration.databasePath, version: try migrator.currentVersion(),
                    migrations: try migrator.status(), seeds: try seedStatus(invocation, database: database),
                    problems: files.problems)
            }
        }
        report.databaseExists = (try? session.requireExistingDatabase()) != nil
        let text = format == "json" ? report.json() : report.text()
        try invocation.io.output.write(invocation.io.isOutputTerminal && format == "text" ? escapedLines(text) : text)
        if !files.problems.isEmpty {
            let paths = files.problems.map(\.path).joined(separator: ", ")
            throw CommandFailure(
                message: "\(files.problems.count == 1 ? "a migration file" : "\(files.problems.count) migration files") "
                    + "cannot be used (marked [error] above): \(paths)")
        }
        let workToDo =
            report.migrations.filter { $0.state != .applied && $0.state != .squashed }.count
            + report.seeds.filter { $0.state != .applied }.count
        invocation.record?.workToDo = workToDo
        invocation.record?.version = report.version
        let hasWork = workToDo > 0
        return invocation.arguments.has(Self.exitCode) && hasWork ? .workPending : .success
    }

    /// The seeds' states; none when the seeds folder does not exist.
    private static func seedStatus(_ invocation: Invocation, database: any SQLConnection) throws -> [Seeder.Status] {
        let folder = invocation.configuration.seedsDirectory
        let seeds = access(folder, F_OK) == 0 ? try MigrationSession(invocation).translating { try Seed.all(in: folder) } : []
        return try Seeder(connection: database).status(of: seeds)
    }

    private static func escapedLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { ControlCharacterEscaping.escape(String($0)) }
            .joined(separator: "\n")
    }
}
