import CellarKit

/// `cellar baseline V`: records migrations up to V as applied without running them.
enum BaselineCommand: Command {
    static let spec = CommandSpec(
        name: "baseline", cluster: .runs,
        abstract: "Record migrations up to V as applied without running them (adopt an existing database).",
        arguments: [.init("version", help: "The last migration the database already matches.")],
        examples: [
            .init("cellar baseline 3", "The database already has what migrations 1 to 3 build: record them without running them.")
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        let version = try MigrationSession.version(invocation.arguments.positionals[0], command: spec.name)
        let files = try session.loadMigrationFiles()
        try session.requireUsable(files, versions: files.problems.compactMap(\.version).filter { $0 <= version })
        let migrations = files.migrations
        return try session.withWritableConnection(creating: false) { database in
            let migrator = Migrator(connection: database, migrations: migrations, checkpoint: files.checkpoint)
            let recorded = try session.translating { try migrator.baseline(through: version) }
            try session.summarize(
                "recorded \(MigrationProgress.count(recorded.count, "migration")) as applied without running them; "
                    + "now at version \(try migrator.currentVersion())")
            return .success
        }
    }
}
