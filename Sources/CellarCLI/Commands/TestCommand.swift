import CellarKit

/// `cellar test`: runs migrations up, down and up again on a rehearsal, and changes nothing.
enum TestCommand: Command {
    static let all = OptionSpec("all", help: "Test every migration, from an empty database.")
    static let against = OptionSpec(
        "against", value: "database",
        help: "Rehearse on an in-memory copy of this database, counting every table's rows at each step.")

    static let spec = CommandSpec(
        name: "test", cluster: .runs,
        abstract: "Run each pending migration up, down and up again on a rehearsal; check what its down restores.",
        options: [all, against],
        conflicts: [
            .init(
                all, against,
                because: "--all tests every migration from an empty database and --against the pending ones on a copy "
                    + "of a database: give one of them")
        ],
        discussion: """
            Without --against, migrations run on an in-memory replay of the migrations before them. After
            the down, the schema must equal the schema before the up; after the second up, the schema the
            first up built. With --against, a table that loses rows the migration does not delete fails
            the test. Each migration is reported ok, no down section, or with what its down does not
            restore. The database is only read.
            """,
        examples: [
            .init("cellar test", "Run each pending migration up, down and up again on an in-memory replay."),
            .init("cellar test --all", "Test every migration, from an empty database."),
            .init(
                "cellar test --against prod-copy.sqlite",
                "Test the pending migrations on an in-memory copy of a database, counting every table's rows."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let arguments = invocation.arguments
        let session = MigrationSession(invocation)
        let files = try session.loadUsableFiles()
        let migrations = files.migrations
        let checkpoint = files.checkpoint
        let opener = DatabaseOpener(invocation.configuration)
        let rehearsal: Database
        let targets: [Migration]
        var countsRows = false
        if let against = arguments.value(of: Self.against) {
            if !DatabaseAddress(against).makesCopies {
                invocation.io.printError(
                    "cellar: a dqlite cluster cannot be copied (dqlite offers no backup API): testing on an in-memory "
                        + "replay of the migrations instead, without row counts")
                rehearsal = try SchemaReplay(migrations: migrations, options: opener.options(mode: .readWriteCreate))
                    .makeDatabase()
                var configuration = invocation.configuration
                configuration.databasePath = against
                let remote = MigrationSession(Invocation(arguments: arguments, configuration: configuration, io: invocation.io))
                targets = try remote.withReadableConnection { try pending(files, on: $0, session) }
            } else {
                guard DatabaseFile.exists(against) else { throw CommandFailure(message: "no database at '\(against)'") }
                let source = try opener.openForRehearsal(at: against)
                targets = try pending(files, on: source, session)
                rehearsal = try source.rehearsalFile(copyingContents: true)
                countsRows = true
            }
        } else {
            rehearsal = try SchemaReplay(migrations: migrations, options: opener.options(mode: .readWriteCreate)).makeDatabase()
            targets =
                arguments.has(Self.all)
                ? migrations : try session.withReadableConnection { try pending(files, on: $0, session) }
        }
        let results = try session.translating {
            try MigrationTester(rehearsal: rehearsal, migrations: migrations, checkpoint: checkpoint, countsRows: countsRows)
                .test(targets)
        }
        for result in results {
            for line in describe(result) { try invocation.io.printOutput(ControlCharacterEscaping.escape(line)) }
        }
        let failed = results.filter(\.isFailed).count
        let withoutDown = results.filter { !$0.isFailed && !$0.hasDownSection }.count
        if !invocation.configuration.isQuiet {
            invocation.io.printError(
                "cellar: test: \(MigrationProgress.count(results.count, "migration")): \(results.count - failed - withoutDown) ok, "
                    + "\(withoutDown) without a down section, \(failed) failed; the database was not changed")
        }
        return failed > 0 ? .failure : .success
    }

    /// The pending migration files (the checkpoint a new database would run is not one to test).
    private static func pending(_ files: MigrationFiles, on database: any SQLConnection, _ session: MigrationSession) throws
        -> [Migration]
    {
        try session.translating {
            try Migrator(connection: database, migrations: files.migrations, checkpoint: files.checkpoint)
                .pending(.init(allowsOutOfOrder: true)).filter { !$0.isCheckpoint }
        }
    }

    /// `0042_rebuild_media: failed` and an indented line per problem.
    static func describe(_ result: MigrationTestResult) -> [String] {
        let verdict = result.isFailed ? "failed" : result.hasDownSection ? "ok" : "no down section"
        let details = result.rowLosses + result.schemaProblems + result.rowDeletions
        return ["\(result.migration.identifier): \(verdict)"] + details.map { "  " + $0 }
    }
}
