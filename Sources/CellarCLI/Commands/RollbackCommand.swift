import CellarKit

/// `cellar rollback`: undoes the latest applied migrations with their down sections.
enum RollbackCommand: Command {
    static let spec = CommandSpec(
        name: "rollback",
        abstract: "Undo the latest applied migrations with their down sections, newest first.",
        options: [
            OptionSpec("steps", value: "n", help: "How many migrations to undo (default 1)."),
            OptionSpec("to", value: "version", help: "Undo every migration above this version, keeping it."),
        ],
        discussion: """
            Refuses, changing nothing, if a migration it would undo has no '-- migrate:down' section or
            its file is missing. Each migration is undone in its own transaction.
            """,
        aliases: ["down"])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        let target = try target(invocation.arguments)
        let migrations = try session.loadMigrations()
        let database = try session.openForWriting(creating: false)
        return try TerminationWatcher.shared.guarding(database) {
            let migrator = session.migrator(database, migrations: migrations)
            let start = WallClock.milliseconds()
            let outcomes = try session.translating { try migrator.rollback(target) }
            let undone = outcomes.filter { !$0.wasSkipped }.count
            let version = try migrator.currentVersion()
            if undone == 0 {
                try session.summarize("nothing to roll back; the database is at version \(version)")
            } else {
                try session.summarize(
                    "rolled back \(MigrationProgress.count(undone, "migration")) in "
                        + "\(MigrationProgress.duration(WallClock.milliseconds() - start)); now at version \(version)")
            }
            return .success
        }
    }

    private static func target(_ arguments: ParsedArguments) throws(UsageError) -> RollbackTarget {
        let steps = arguments.value("steps")
        let version = arguments.value("to")
        if steps != nil, version != nil { throw UsageError("give either --steps or --to, not both", command: spec.name) }
        if let version { return .version(try MigrationSession.version(version, command: spec.name)) }
        guard let steps else { return .steps(1) }
        guard let count = Int(steps), count > 0 else {
            throw UsageError("option '--steps' expects a positive whole number, not '\(steps)'", command: spec.name)
        }
        return .steps(count)
    }
}
