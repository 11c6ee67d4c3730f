import CellarKit

/// `cellar seed [FILE…]`: runs seed files not applied yet, each in one transaction.
enum SeedCommand: Command {
    static let force = OptionSpec("force", help: "Run them again even if applied, and update their ledger rows.")

    static let spec = CommandSpec(
        name: "seed", cluster: .runs,
        abstract: "Run the seed files not yet applied (all of the seeds folder in order, or the named ones).",
        arguments: [
            .init(
                "file", help: "Seed files to run (paths); default: every .sql file of the seeds folder.", optional: true,
                repeatable: true)
        ],
        options: [force],
        discussion: """
            Seed SQL may call readfile('path') to load a file as a blob; relative paths are relative to the
            seed file's folder, so seeding works from any directory. A missing file is an error. Named
            files must lie inside the seeds folder: a seed is recorded by its name there.
            """,
        examples: [
            .init("cellar seed", "Run the seed files not yet applied, in file-name order."),
            .init("cellar seed seeds/0002_wines.sql --force", "Run one seed again (after editing it) and update its ledger row."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        let folder = invocation.configuration.seedsDirectory
        let files = invocation.arguments.positionals
        let seeds = try session.translating {
            try files.isEmpty
                ? Seed.all(in: folder) : files.map { path throws(MigrationError) in try Seed.file(path, seedsFolder: folder) }
        }
        return try session.withWritableConnection(creating: false, fileFunctions: true) { database in
            let start = WallClock.milliseconds()
            let outcomes = try session.translating {
                try Seeder(connection: database).run(seeds, force: invocation.arguments.has(Self.force))
            }
            let applied = outcomes.filter { !$0.wasSkipped }
            for outcome in outcomes where outcome.wasSkipped && !files.isEmpty {
                invocation.io.printError(
                    "cellar: note: seed \(ControlCharacterEscaping.escape(outcome.seed.name)) was already applied (--force runs it again)"
                )
            }
            try session.summarize(
                "applied \(MigrationProgress.count(applied.count, "seed")) in \(MigrationProgress.duration(WallClock.milliseconds() - start))"
                    + (outcomes.count > applied.count ? "; \(outcomes.count - applied.count) already applied" : ""))
            return .success
        }
    }
}
