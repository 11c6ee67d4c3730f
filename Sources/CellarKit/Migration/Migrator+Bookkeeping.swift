extension Migrator {
    /// Records every migration up to `version` as applied without running it, with each file's current
    /// checksum, to adopt a database whose schema already matches them.
    ///
    /// - Returns: the migrations newly recorded (those already recorded are left alone).
    /// - Throws: ``MigrationError/unknownVersion(_:)`` when no file has `version`.
    @discardableResult
    public func baseline(through version: Int64) throws -> [Migration] {
        guard migrations.contains(where: { $0.version == version }) else { throw MigrationError.unknownVersion(version) }
        forgetLedgerReads()
        return try database.transaction(.immediate) {
            try Ledger.prepareMigrations(in: database)
            var recorded: [Migration] = []
            for migration in migrations where migration.version <= version {
                guard try !Ledger.isApplied(migration.version, in: database) else { continue }
                try Ledger.record(migration, durationMilliseconds: 0, kind: "baseline", in: database)
                recorded.append(migration)
            }
            return recorded
        }
    }

    /// Records the current checksum of migration `version`'s file as the applied one, after a deliberate
    /// harmless edit. The unfinished claim of a `transaction:false` migration whose process stopped
    /// partway becomes an applied row: call it once its remaining statements were completed by hand.
    ///
    /// - Returns: whether the ledger changed (false when the checksum already matched).
    /// - Throws: ``MigrationError/unknownVersion(_:)`` without a file, ``MigrationError/notApplied(version:)``
    ///   when it has not been applied.
    @discardableResult
    public func accept(version: Int64) throws -> Bool {
        guard let migration = migrations.first(where: { $0.version == version }) else {
            throw MigrationError.unknownVersion(version)
        }
        forgetLedgerReads()
        let recorded = try Ledger.appliedMigrations(in: database, includingUnfinished: true)
        guard let record = recorded.first(where: { $0.version == version }) else {
            throw MigrationError.notApplied(version: version)
        }
        if record.isUnfinished {
            try database.transaction(.immediate) {
                try Ledger.finish(migration, durationMilliseconds: record.durationMilliseconds, in: database)
            }
            return true
        }
        guard record.checksum != migration.checksum else { return false }
        try database.transaction(.immediate) {
            try Ledger.prepareMigrations(in: database)
            try Ledger.updateChecksum(migration, in: database)
        }
        return true
    }

    /// Applies pending migrations to a copy of the database made with the online backup API, set up
    /// as the connection was (its extensions and functions too), and reports what each did; the
    /// database itself is only read. `ATTACH` is refused on the copy, since an attached file would
    /// really change. An engine that cannot be copied (a remote one) rehearses on the database itself,
    /// inside one transaction that is rolled back.
    ///
    /// - Returns: the outcomes on the copy, with ``MigrationOutcome/schemaChanges`` filled in.
    /// - Throws: what ``migrate(_:)`` would throw on the real database, and ``MigrationError/failed(_:)``
    ///   for a migration that attaches a database.
    public func plan(_ options: Options = Options()) throws -> [MigrationOutcome] {
        let rehearsal = Migrator(
            connection: database.makesRehearsalCopies ? try database.rehearsalCopy() : database, migrations: migrations,
            checkpoint: checkpoint)
        rehearsal.busyTimeout = busyTimeout
        rehearsal.collectsSchemaChanges = true
        rehearsal.isRehearsal = true
        rehearsal.observer = observer
        if !database.makesRehearsalCopies { return try rehearsal.rehearseInRolledBackTransaction(options) }
        return try rehearsal.migrate(options)
    }

    /// Applies pending migrations to this migrator's own connection as a rehearsal does (`ATTACH`
    /// refused, schema changes and row counts collected), for a connection that is itself thrown away:
    /// `setup --dry-run` bootstraps an in-memory database this way, then runs the seeds on it.
    ///
    /// - Returns: the outcomes, with ``MigrationOutcome/schemaChanges`` filled in.
    /// - Throws: as ``plan(_:)``.
    package func rehearseOnConnection(_ options: Options = Options()) throws -> [MigrationOutcome] {
        collectsSchemaChanges = true
        isRehearsal = true
        defer {
            collectsSchemaChanges = false
            isRehearsal = false
        }
        return try migrate(options)
    }
}
