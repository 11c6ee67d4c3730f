import CellarDqlite
import CellarKit

/// `rollback`, `baseline` and `accept` on a dqlite database: the local migrator itself, run through
/// CellarKit's engine seam over the cluster (``RemoteConnection``).
enum RemoteLedgerCommands {
    static func rollback(_ session: RemoteSession) throws -> ExitStatus {
        let target = try RollbackCommand.target(session.invocation.arguments)
        let migrator = try session.seamMigrator(try session.migrationSession.loadMigrations())
        let before = try migrator.applied()
        if before.isEmpty, session.invocation.arguments.value("steps") == nil {
            try session.migrationSession.summarize("nothing to roll back; the database is at version 0")
            return .success
        }
        let start = WallClock.milliseconds()
        let undone = try session.migrationSession.translating { try migrator.rollback(target) }.filter { !$0.wasSkipped }
        let version = try migrator.currentVersion()
        if undone.isEmpty {
            try session.migrationSession.summarize("nothing to roll back; the database is at version \(version)")
        } else {
            try session.migrationSession.summarize(
                "rolled back \(MigrationProgress.count(undone.count, "migration")) in "
                    + "\(MigrationProgress.duration(WallClock.milliseconds() - start)); now at version \(version)")
        }
        return .success
    }

    static func baseline(_ session: RemoteSession) throws -> ExitStatus {
        let version = try MigrationSession.version(session.invocation.arguments.positionals[0], command: "baseline")
        let migrator = try session.seamMigrator(try session.migrationSession.loadMigrations())
        let recorded = try session.migrationSession.translating { try migrator.baseline(through: version) }
        try session.migrationSession.summarize(
            "recorded \(MigrationProgress.count(recorded.count, "migration")) as applied without running them; "
                + "now at version \(try migrator.currentVersion())")
        return .success
    }

    static func accept(_ session: RemoteSession) throws -> ExitStatus {
        let version = try MigrationSession.version(session.invocation.arguments.positionals[0], command: "accept")
        let migrations = try session.migrationSession.loadMigrations()
        let migrator = try session.seamMigrator(migrations)
        let changed = try session.migrationSession.translating { try migrator.accept(version: version) }
        let identifier = migrations.first { $0.version == version }?.identifier ?? String(version)
        try session.migrationSession.summarize(
            ControlCharacterEscaping.escape(
                changed
                    ? "accepted the current checksum of \(identifier)"
                    : "\(identifier) already matches its recorded checksum; nothing changed"))
        return .success
    }
}
