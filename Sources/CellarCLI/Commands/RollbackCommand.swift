import CellarKit

/// `cellar rollback`: undoes the latest applied migrations with their down sections.
enum RollbackCommand: Command {
    static let steps = OptionSpec("steps", value: "n", help: "How many migrations to undo (default 1).")
    static let to = OptionSpec("to", value: "version", help: "Undo every migration above this version, keeping it.")

    static let spec = CommandSpec(
        name: "rollback", cluster: .runs,
        abstract: "Undo the latest applied migrations with their down sections, newest first.",
        options: [steps, to],
        conflicts: [.init(steps, to, because: "give either --steps or --to, not both")],
        discussion: """
            Refuses, changing nothing, if a migration it would undo has no '-- migrate:down' section or
            its file is missing, or if --steps asks for more than may be undone. Migrations recorded by
            'cellar baseline' are never undone; --to 0 stops above them. Each migration is undone in its
            own transaction; the one that leaves no migration applied also forgets every seed.
            """,
        aliases: ["down"],
        examples: [
            .init("cellar rollback", "Undo the newest migration with its down section."),
            .init("cellar rollback --steps 2", "Undo the two newest migrations, newest first."),
            .init("cellar rollback --to 0", "Undo every migration (the seeds' ledger is emptied with the last one)."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        let target = try target(invocation.arguments)
        let files = try session.loadMigrationFiles()
        let migrations = files.migrations
        return try session.withWritableConnection(creating: false) { database in
            let migrator = session.migrator(
                connection: database, migrations: migrations, checkpoint: files.checkpoint, verb: "rolled back")
            let before = try session.translating { try migrator.applied() }
            let seedsBefore = try Seeder(connection: database).status(of: [])
            // A plain `rollback` with nothing applied has nothing to refuse; an explicit --steps does.
            if before.isEmpty, invocation.arguments.value(of: Self.steps) == nil {
                try session.summarize("nothing to roll back; the database is at version 0")
                return .success
            }
            let start = WallClock.milliseconds()
            let outcomes = try session.translating {
                do {
                    return try migrator.rollback(target)
                } catch MigrationError.appliedButMissing(let version, _) where files.problem(version: version) != nil {
                    try session.requireUsable(files, versions: [version])
                    return []
                }
            }
            let undone = outcomes.filter { !$0.wasSkipped }
            let remaining = try migrator.applied()
            let version = remaining.last?.version ?? 0
            if undone.isEmpty {
                try session.summarize("nothing to roll back; the database is at version \(version)")
            } else {
                var summary =
                    "rolled back \(MigrationProgress.count(undone.count, "migration")) in "
                    + "\(MigrationProgress.duration(WallClock.milliseconds() - start)); now at version \(version)"
                if remaining.isEmpty, !seedsBefore.isEmpty {
                    summary +=
                        "; forgot \(MigrationProgress.count(seedsBefore.count, "seed")) (their data went with the tables), "
                        + "so the next setup runs them again"
                } else {
                    warnAboutSeeds(seedsBefore, undone: undone, records: before, io: invocation.io)
                }
                try session.summarize(summary)
            }
            if target == .version(0), let baseline = remaining.last(where: \.isBaseline) {
                invocation.io.printError(
                    "cellar: note: stopped at version \(version): "
                        + ControlCharacterEscaping.escape(MigrationError.baselineNote(baseline)))
            }
            return .success
        }
    }

    /// Warns about seeds that ran after the earliest migration a partial rollback undid: their rows may
    /// have gone with its tables, yet they stay recorded as applied.
    private static func warnAboutSeeds(
        _ seeds: [Seeder.Status], undone: [MigrationOutcome], records: [AppliedMigration], io: IO
    ) {
        guard let earliest = undone.map(\.migration.version).min(),
            let record = records.first(where: { $0.version == earliest })
        else { return }
        let affected = seeds.filter { ($0.appliedAt ?? "") >= record.appliedAt }.map(\.name)
        guard !affected.isEmpty else { return }
        io.printError(
            "cellar: warning: "
                + ControlCharacterEscaping.escape(
                    "\(affected.count == 1 ? "seed" : "seeds") \(affected.joined(separator: ", ")) ran after migration "
                        + "\(earliest) and \(affected.count == 1 ? "stays" : "stay") recorded as applied; if the rollback "
                        + "dropped \(affected.count == 1 ? "its" : "their") data, run 'cellar seed FILE --force'"))
    }

    static func target(_ arguments: ParsedArguments) throws(UsageError) -> RollbackTarget {
        let steps = arguments.value(of: Self.steps)
        let version = arguments.value(of: Self.to)
        if let version { return .version(try MigrationSession.version(version, command: spec.name)) }
        guard let steps else { return .steps(1) }
        guard let count = Int(steps), count > 0 else {
            throw UsageError("option '--steps' expects a positive whole number, not '\(steps)'", command: spec.name)
        }
        return .steps(count)
    }
}
