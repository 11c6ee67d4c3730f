import CellarKit

/// `cellar adopt`: records what another migration tool's ledger holds as applied, so that a project
/// moving to cellar never runs a migration a second time.
enum AdoptCommand: Command {
    static let spec = CommandSpec(
        name: "adopt", cluster: .runs,
        abstract: "Record the migrations dbmate, goose, golang-migrate, sql-migrate, diesel or sqlx applied.",
        discussion: """
            Reads the other tool's ledger (schema_migrations, goose_db_version, gorp_migrations,
            __diesel_schema_migrations or _sqlx_migrations) and records every version it holds that has a
            file here as applied (kind 'adopted', with the file's checksum), in one transaction, without
            running anything. The other tool's table is left as it was. A dirty ledger (a migration that
            failed partway) is refused.
            """,
        examples: [
            .init("cellar adopt -d db/app.sqlite3", "Record what dbmate's schema_migrations says was applied; run nothing."),
            .init("cellar adopt && cellar migrate", "Adopt, then apply only the migrations the other tool never ran."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        // Every file must be usable: a checksum is recorded for each version adopted.
        let files = try session.loadUsableFiles()
        let migrations = files.migrations
        return try session.withWritableConnection(creating: false) { database in
            let migrator = Migrator(connection: database, migrations: migrations, checkpoint: files.checkpoint)
            let adoption = try session.translating { try migrator.adopt() }
            let tool = adoption.ledger.tool.rawValue
            if !adoption.versionsWithoutFile.isEmpty {
                let versions = adoption.versionsWithoutFile.map(String.init).joined(separator: ", ")
                session.io.printError(
                    "cellar: warning: \(tool)'s ledger also records \(versions), which no file in "
                        + "'\(ControlCharacterEscaping.escape(session.configuration.migrationsDirectory))' has; not recorded")
            }
            var line = "adopted \(MigrationProgress.count(adoption.recorded.count, "migration")) from \(tool)'s ledger "
            line += "(\(adoption.ledger.table), left as it was)"
            if !adoption.alreadyRecorded.isEmpty { line += "; \(adoption.alreadyRecorded.count) already recorded" }
            try session.summarize(line + "; now at version \(try migrator.currentVersion())")
            return .success
        }
    }
}
