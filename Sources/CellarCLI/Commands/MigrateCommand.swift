import CellarKit

/// `cellar migrate`: applies pending migrations in version order.
enum MigrateCommand: Command {
    static let to = OptionSpec("to", value: "version", help: "Apply pending migrations up to this version only.")
    static let dryRun = OptionSpec(
        "dry-run", help: "Apply them to a copy, report what each would do, leave the database untouched.")
    static let allOrNothing = OptionSpec("all-or-nothing", help: "Run every pending migration in one transaction.")
    static let allowOutOfOrder = OptionSpec(
        "allow-out-of-order", help: "Apply pending migrations older than the newest applied one.")

    static let spec = CommandSpec(
        name: "migrate", cluster: .runs, fleet: true,
        abstract: "Apply pending migrations in version order, each in its own transaction.",
        options: [to, dryRun, allOrNothing, allowOutOfOrder, MigrationSession.dumpSchemaOption] + BackupPolicy.options
            + FleetOptions.options + [FleetOptions.format],
        discussion: """
            Every file is read and checked before anything runs. A failing migration is rolled back and
            the run stops; migrations applied before it in the same run stay applied (unless
            --all-or-nothing).
            """,
        examples: [
            .init("cellar migrate", "Apply the pending migrations, each in its own transaction."),
            .init(
                "cellar migrate --dry-run", "Rehearse them on a copy and report what each would do; the database is untouched."),
            .init("cellar migrate --to 3", "Apply the pending migrations up to version 3 only."),
            .init(
                "cellar migrate -d app.sqlite --backup --dump-schema schema.sql",
                "Back up first, then write the new schema to schema.sql."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        let arguments = invocation.arguments
        var options = Migrator.Options(
            allowsOutOfOrder: arguments.has(Self.allowOutOfOrder), isAllOrNothing: arguments.has(Self.allOrNothing))
        if let target = arguments.value(of: Self.to) { options.target = try MigrationSession.version(target, command: spec.name) }
        let files = try session.loadUsableFiles()
        let migrations = files.migrations
        let checkpoint = files.checkpoint
        if arguments.has(Self.dryRun) {
            if session.configuration.address.makesCopies {
                let migrator = Migrator(database: try session.openForRehearsal(), migrations: migrations, checkpoint: checkpoint)
                return try dryRun(migrator, options: options, session: session)
            }
            return try session.withWritableConnection(creating: false) { database in
                let migrator = Migrator(connection: database, migrations: migrations, checkpoint: checkpoint)
                migrator.busyTimeout = session.configuration.busyTimeout
                return try dryRun(migrator, options: options, session: session)
            }
        }
        try session.refuseBackupIfUncopyable()
        try session.preflight(migrations, checkpoint: checkpoint, options: options)
        return try session.withWritableConnection(creating: true) { database in
            try apply(migrations, checkpoint: checkpoint, options: options, on: database, session: session)
        }
    }

    private static func apply(
        _ migrations: [Migration], checkpoint: Checkpoint?, options: Migrator.Options, on database: any SQLConnection,
        session: MigrationSession
    ) throws -> ExitStatus {
        let migrator = session.migrator(connection: database, migrations: migrations, checkpoint: checkpoint)
        // The checks before the first migration read the ledgers' rows of sqlite_schema once.
        let (start, applied) = try migrator.sharingLedgerReads {
            try session.warnAboutAppliedChanges(migrator)
            if try !session.translating({ try migrator.pending(options) }).isEmpty {
                try session.backUpIfAsked(database, version: migrator.currentVersion())
            }
            let start = WallClock.milliseconds()
            return (start, try session.apply(migrator, options: options))
        }
        let version = try session.readingUnderOneLock(database) { try migrator.currentVersion() }
        session.invocation.record?.appliedMigrations = applied
        session.invocation.record?.version = version
        if applied == 0 {
            try session.summarize("nothing to apply; the database is at version \(version)")
        } else {
            try session.summarize(
                "applied \(MigrationProgress.count(applied, "migration")) in "
                    + "\(MigrationProgress.duration(WallClock.milliseconds() - start)); now at version \(version)")
        }
        try session.dumpSchemaIfAsked(database)
        return .success
    }

    /// Reports what each pending migration would do, rehearsed on a copy of a file, or on a dqlite
    /// database itself inside one transaction that is rolled back (which a `transaction:false`
    /// migration cannot join).
    private static func dryRun(_ migrator: Migrator, options: Migrator.Options, session: MigrationSession) throws
        -> ExitStatus
    {
        let outcomes = try session.translating {
            do {
                return try migrator.plan(options)
            } catch MigrationError.nonTransactionalInAllOrNothing(let path) where !migrator.database.makesRehearsalCopies {
                throw Diagnostic(
                    path: path,
                    message: "runs with transaction:false, so migrate --dry-run cannot rehearse it on a dqlite database: "
                        + "there the rehearsal runs inside one transaction that is rolled back (the cluster offers no copy)")
            }
        }
        for outcome in outcomes where !outcome.wasSkipped {
            try session.io.printOutput(describe(outcome))
        }
        let total = outcomes.reduce(0) { $0 + $1.durationMilliseconds }
        try session.io.printOutput(
            "dry run: would apply \(MigrationProgress.count(outcomes.count, "migration")) "
                + "(\(MigrationProgress.duration(total))); the database was not changed")
        return .success
    }

    static func describe(_ outcome: MigrationOutcome) -> String {
        var parts = [
            MigrationProgress.count(outcome.statementCount, "statement"),
            "\(MigrationProgress.count(outcome.changedRows, "row")) changed",
        ]
        if let changes = outcome.schemaChanges {
            if !changes.created.isEmpty { parts.append("created \(changes.created.joined(separator: ", "))") }
            if !changes.dropped.isEmpty { parts.append("dropped \(changes.dropped.joined(separator: ", "))") }
            if !changes.redefined.isEmpty { parts.append("redefined \(changes.redefined.joined(separator: ", "))") }
        }
        let counts = outcome.rowCountChanges.map { change in
            "\(change.table) \(change.before.map(MigrationProgress.number) ?? "-") → \(change.after.map(MigrationProgress.number) ?? "-")"
        }
        if !counts.isEmpty { parts.append("rows: \(counts.joined(separator: ", "))") }
        parts.append(MigrationProgress.duration(outcome.durationMilliseconds))
        return ControlCharacterEscaping.escape("\(outcome.migration.identifier): \(parts.joined(separator: ", "))")
    }
}
