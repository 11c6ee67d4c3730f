import CellarDqlite
import CellarKit
import Glibc

/// `migrate` and `setup` on a dqlite database.
enum RemoteMigrateCommand {
    static func run(_ session: RemoteSession) throws -> ExitStatus {
        let arguments = session.invocation.arguments
        if arguments.has("dry-run") {
            throw CommandFailure(
                message: "migrate --dry-run is not available on a dqlite database: it rehearses on a local copy made "
                    + "with SQLite's backup API, which a dqlite cluster does not offer")
        }
        var options = Migrator.Options(
            allowsOutOfOrder: arguments.has("allow-out-of-order"), isAllOrNothing: arguments.has("all-or-nothing"))
        if let target = arguments.value("to") { options.target = try MigrationSession.version(target, command: "migrate") }
        return try apply(session, options: options)
    }

    static func setup(_ session: RemoteSession) throws -> ExitStatus {
        let folder = session.invocation.configuration.seedsDirectory
        if access(folder, F_OK) == 0, try !Seed.all(in: folder).isEmpty {
            throw CommandFailure(
                message: "setup cannot apply seeds to a dqlite database yet (\(folder) has seeds); "
                    + "run 'cellar migrate' for the migrations")
        }
        return try apply(session, options: Migrator.Options())
    }

    private static func apply(_ session: RemoteSession, options: Migrator.Options) throws -> ExitStatus {
        let migrations = try session.migrationSession.loadMigrations()
        let database = try session.connect()
        let migrator = session.migrator(database, migrations: migrations)
        try session.migrationSession.warnAboutAppliedChanges(try migrator.mirror())
        let start = WallClock.milliseconds()
        let outcomes = try migrator.migrate(options)
        let applied = outcomes.filter { !$0.wasSkipped }.count
        let version = try migrator.currentVersion()
        if applied == 0 {
            try session.migrationSession.summarize("nothing to apply; the database is at version \(version)")
        } else {
            try session.migrationSession.summarize(
                "applied \(MigrationProgress.count(applied, "migration")) in "
                    + "\(MigrationProgress.duration(WallClock.milliseconds() - start)); now at version \(version)")
        }
        return .success
    }
}
