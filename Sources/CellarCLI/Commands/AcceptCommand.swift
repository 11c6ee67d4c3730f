import CellarKit

/// `cellar accept V`: records the current checksum of an applied migration's file.
enum AcceptCommand: Command {
    static let spec = CommandSpec(
        name: "accept", cluster: .runs,
        abstract: "Record migration V's current checksum as the applied one, after a harmless edit.",
        arguments: [.init("version", help: "The version of the edited migration.")],
        examples: [
            .init("cellar accept 2", "Migration 2's file got a comment after it ran: record its new checksum.")
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        let version = try MigrationSession.version(invocation.arguments.positionals[0], command: spec.name)
        let files = try session.loadMigrationFiles()
        try session.requireUsable(files, versions: [version])
        let migrations = files.migrations
        return try session.withWritableConnection(creating: false) { database in
            let migrator = Migrator(connection: database, migrations: migrations, checkpoint: files.checkpoint)
            let changed = try session.translating { try migrator.accept(version: version) }
            let identifier = migrations.first { $0.version == version }?.identifier ?? String(version)
            try session.summarize(
                ControlCharacterEscaping.escape(
                    changed
                        ? "accepted the current checksum of \(identifier)"
                        : "\(identifier) already matches its recorded checksum; nothing changed"))
            return .success
        }
    }
}
