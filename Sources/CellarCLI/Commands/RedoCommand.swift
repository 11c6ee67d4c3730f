import CellarKit

/// `cellar redo`: rolls back the newest migration and applies it again (goose's habit, while writing one).
enum RedoCommand: Command {
    static let spec = CommandSpec(
        name: "redo", cluster: .runs,
        abstract: "Roll back the newest migration and apply it again (while writing it).",
        discussion: """
            Runs its down section, then its up section, each in its own transaction, as 'cellar rollback'
            then 'cellar migrate --to V' would. If the up section fails, the database stays rolled back
            to the version before it.
            """,
        examples: [.init("cellar redo", "Undo the migration being written and apply it again after an edit.")])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        let files = try session.loadUsableFiles()
        let migrations = files.migrations
        return try session.withWritableConnection(creating: false) { database in
            let undoer = session.migrator(
                connection: database, migrations: migrations, checkpoint: files.checkpoint, verb: "rolled back")
            guard let newest = try session.translating({ try undoer.applied() }).last else {
                try session.summarize("nothing to redo; the database is at version 0")
                return .success
            }
            let start = WallClock.milliseconds()
            _ = try session.translating { try undoer.rollback(.steps(1)) }
            let applier = session.migrator(connection: database, migrations: migrations, checkpoint: files.checkpoint)
            _ = try session.translating { try applier.migrate(Migrator.Options(target: newest.version)) }
            let identifier = migrations.first { $0.version == newest.version }?.identifier ?? "\(newest.version)_\(newest.name)"
            try session.summarize(
                "redid \(ControlCharacterEscaping.escape(identifier)) in "
                    + "\(MigrationProgress.duration(WallClock.milliseconds() - start)); now at version "
                    + "\(try applier.currentVersion())")
            return .success
        }
    }
}
