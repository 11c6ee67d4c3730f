import CellarKit

/// `cellar verify`: fails if an applied migration's file changed or is missing.
enum VerifyCommand: Command {
    static let schema = OptionSpec(
        "schema", help: "Also replay the applied migrations and report schema drift (exit 1 on drift).")

    static let spec = CommandSpec(
        name: "verify", cluster: .runs, fleet: true,
        abstract: "Fail (exit 1) if any applied migration's file changed or is missing.",
        options: [schema] + FleetOptions.options + [FleetOptions.format],
        discussion: """
            --schema replays the up sections of every applied migration (baselined ones included) into an
            in-memory database and compares its schema with the database's, ignoring whitespace, comments,
            case, identifier quoting and order: each object added, removed or changed by hand is one line.
            """,
        examples: [
            .init("cellar verify", "Exit 1 if an applied migration's file was changed or deleted."),
            .init("cellar verify --schema", "Also report tables, indexes, views and triggers changed outside the migrations."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        let files = try session.loadMigrationFiles()
        try session.requireExistingDatabase()
        return try session.withReadableConnection { database in
            let migrator = Migrator(connection: database, migrations: files.migrations, checkpoint: files.checkpoint)
            let applied = Set(try session.translating { try migrator.applied() }.map(\.version))
            let unusable = files.problems.filter { $0.version.map(applied.contains) ?? false }
            let troubled = Set(unusable.compactMap(\.version))
            let reporter = ErrorReporter(io: invocation.io, usesColor: invocation.configuration.usesColor)
            for problem in unusable { _ = reporter.report(FlagAdvice.advised(problem.error)) }
            for problem in files.problems where !(problem.version.map(applied.contains) ?? false) {
                invocation.io.printError(
                    "cellar: warning: "
                        + ControlCharacterEscaping.escape(
                            "\(problem.path): \(StatusReport.message(of: problem)) (not applied, so not verified)"))
            }
            let mismatches = try migrator.verify().filter { error in
                if case .appliedButMissing(let version, _) = error { return !troubled.contains(version) }
                return true
            }
            for problem in mismatches { _ = reporter.report(FlagAdvice.advised(problem)) }
            let problems = unusable.map(\.error) + mismatches
            guard problems.isEmpty else {
                throw CommandFailure(
                    message: "verification failed: \(MigrationProgress.count(problems.count, "applied migration")) "
                        + "\(problems.count == 1 ? "does" : "do") not match the files")
            }
            if invocation.arguments.has(Self.schema) {
                let drifts = try session.translating {
                    try migrator.schemaDrift()
                }
                for drift in drifts { invocation.io.printError(ControlCharacterEscaping.escape("drift: \(drift)")) }
                guard drifts.isEmpty else {
                    throw CommandFailure(
                        message:
                            "schema drift: \(MigrationProgress.count(drifts.count, "difference")) from what the migrations create"
                    )
                }
            }
            invocation.record?.verifiedMigrations = try migrator.applied().count
            invocation.record?.version = try migrator.currentVersion()
            // Rows the checkpoint stands for have no file to match: the summary says how many.
            let squashed = try migrator.status().filter { $0.state == .squashed }.count
            let stoodFor = squashed == 0 ? "" : " (\(squashed) squashed into \(files.checkpoint?.path ?? Checkpoint.fileName))"
            try session.summarize(
                "verified \(MigrationProgress.count(try migrator.applied().count, "applied migration")): all match their files"
                    + stoodFor + (invocation.arguments.has(Self.schema) ? " and the schema matches them" : ""))
            return .success
        }
    }
}
