import CellarKit
import Glibc

/// `cellar setup`: creates the database if missing, applies pending migrations, then new seeds.
enum SetupCommand: Command {
    static let allowOutOfOrder = OptionSpec(
        "allow-out-of-order", help: "Apply pending migrations older than the newest applied one.")
    static let dryRun = OptionSpec(
        "dry-run", help: "Bootstrap a new in-memory database (every migration, then every seed), report, change nothing.")

    static let spec = CommandSpec(
        name: "setup", cluster: .runs, fleet: true,
        abstract: "Create the database if missing, apply pending migrations, then seeds not yet applied.",
        options: [allowOutOfOrder, dryRun, MigrationSession.dumpSchemaOption] + BackupPolicy.options
            + FleetOptions.options + [FleetOptions.format],
        discussion: """
            Idempotent: safe to run on every deploy. A seeds folder that does not exist is skipped unless it
            was named with --seeds or CELLAR_SEEDS. Seed SQL may call readfile('path'); relative paths are
            relative to the seed file's folder. A seed changed after it ran is not run again: setup warns
            and names 'cellar seed FILE --force'.
            """,
        aliases: ["up"],
        examples: [
            .init("cellar setup", "Create cellar.sqlite if it is missing, apply every pending migration, then every new seed."),
            .init("cellar setup -d app.sqlite --backup", "On a deploy: copy the database aside first when something is pending."),
            .init("cellar setup -d 'tenants/*.sqlite' --jobs 4", "Set up every tenant database, four at a time."),
            .init(
                "cellar setup --dry-run",
                "Bootstrap a new database in memory (every migration, then every seed) and report; nothing is written."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        let files = try session.loadUsableFiles()
        let migrations = files.migrations
        let seeds = try session.translating { try loadSeeds(invocation) }
        let options = Migrator.Options(allowsOutOfOrder: invocation.arguments.has(Self.allowOutOfOrder))
        if invocation.arguments.has(Self.dryRun) { return try dryRun(files, seeds: seeds, session: session) }
        try session.refuseBackupIfUncopyable()
        try session.preflight(migrations, checkpoint: files.checkpoint, options: options)
        return try session.withWritableConnection(creating: true, fileFunctions: true) { database in
            let migrator = session.migrator(connection: database, migrations: migrations, checkpoint: files.checkpoint)
            try session.warnAboutAppliedChanges(migrator)
            let hasPendingMigrations = try !session.translating { try migrator.pending(options) }.isEmpty
            if try hasPendingMigrations
                || Seeder(connection: database).status(of: seeds).contains(where: { $0.state == .pending })
            {
                try session.backUpIfAsked(database, version: migrator.currentVersion())
            }
            let start = WallClock.milliseconds()
            let applied = try session.apply(migrator, options: options)
            let seeder = Seeder(connection: database)
            let seedOutcomes = try session.translating { try seeder.run(seeds) }
            let changedSeeds = try seeder.status(of: seeds).filter { $0.state == .changed }
            for seed in changedSeeds {
                let path = seed.seed?.path ?? seed.name
                invocation.io.printError(
                    "cellar: warning: "
                        + ControlCharacterEscaping.escape(
                            "\(path): seed changed after it was applied; it is not run again "
                                + "(to apply it again: cellar seed \(path) --force)"))
            }
            let seeded = seedOutcomes.filter { !$0.wasSkipped }.count
            let version = try session.readingUnderOneLock(database) { try migrator.currentVersion() }
            invocation.record?.appliedMigrations = applied
            invocation.record?.appliedSeeds = seeded
            invocation.record?.version = version
            if applied + seeded == 0 {
                // A changed seed was warned about just above: it is not "applied" as the file now reads.
                let seedState =
                    changedSeeds.isEmpty
                    ? "every seed is applied"
                    : "\(MigrationProgress.count(changedSeeds.count, "seed")) changed since applied, not run again"
                try session.summarize("nothing to do; the database is at version \(version) and \(seedState)")
            } else {
                try session.summarize(
                    "applied \(MigrationProgress.count(applied, "migration")) and \(MigrationProgress.count(seeded, "seed")) in "
                        + "\(MigrationProgress.duration(WallClock.milliseconds() - start)); now at version \(version)")
            }
            try session.dumpSchemaIfAsked(database)
            return .success
        }
    }

    /// A fresh bootstrap rehearsed in memory: every migration, then every seed, on a new database set
    /// up as the configured one would be, reported as `migrate --dry-run` reports; `writefile` is
    /// refused, so that nothing outside memory changes.
    private static func dryRun(_ files: MigrationFiles, seeds: [Seed], session: MigrationSession) throws -> ExitStatus {
        let opener = DatabaseOpener(session.configuration)
        let database = try opener.open(":memory:", options: opener.options(mode: .readWriteCreate, fileFunctions: true))
        try database.setAuthorizer { request in
            request.action == .function && request.second?.lowercased() == "writefile" ? .deny : .allow
        }
        let start = WallClock.milliseconds()
        let outcomes = try session.translating {
            try Migrator(database: database, migrations: files.migrations, checkpoint: files.checkpoint).rehearseOnConnection()
        }
        for outcome in outcomes where !outcome.wasSkipped { try session.io.printOutput(MigrateCommand.describe(outcome)) }
        let seedOutcomes = try session.translating {
            do {
                return try Seeder(connection: database).run(seeds)
            } catch MigrationError.failed(var diagnostic) {
                diagnostic.notes = ["dry run: the seed failed on a new in-memory database; the database was not changed"]
                throw MigrationError.failed(diagnostic)
            }
        }
        for outcome in seedOutcomes {
            try session.io.printOutput(
                ControlCharacterEscaping.escape(
                    "\(outcome.seed.path): \(MigrationProgress.count(outcome.statementCount, "statement")), "
                        + "\(MigrationProgress.count(outcome.changedRows, "row")) changed"))
        }
        try session.io.printOutput(
            "dry run: a new database would get \(MigrationProgress.count(outcomes.count, "migration")) and "
                + "\(MigrationProgress.count(seedOutcomes.count, "seed")) "
                + "(\(MigrationProgress.duration(WallClock.milliseconds() - start))); the database was not changed")
        return .success
    }

    /// The seeds folder's seeds; none when the default folder does not exist.
    private static func loadSeeds(_ invocation: Invocation) throws -> [Seed] {
        let folder = invocation.configuration.seedsDirectory
        let isExplicit =
            invocation.arguments.value(of: GlobalOptions.seeds.option) != nil
            || !(invocation.io.environment["CELLAR_SEEDS"] ?? "").isEmpty
        if !isExplicit, access(folder, F_OK) != 0 { return [] }
        return try Seed.all(in: folder)
    }
}
