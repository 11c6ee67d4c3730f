/// How far ``Migrator/rollback(_:)`` goes back.
public enum RollbackTarget: Sendable, Equatable {
    /// Undo the latest `n` applied migrations.
    case steps(Int)
    /// Undo every applied migration above this version, keeping it (0 undoes everything).
    case version(Int64)
}

extension Migrator {
    /// Undoes the latest applied migrations with their down sections, newest first, each in its own
    /// transaction that also deletes its ledger row.
    ///
    /// Every migration to undo is checked first: its file must exist and have a down section.
    /// - Returns: what each rollback did, newest first.
    /// - Throws: ``MigrationError`` (``MigrationError/noDownSection(path:)``,
    ///   ``MigrationError/appliedButMissing(version:name:)``, a failure with a located diagnostic).
    @discardableResult
    public func rollback(_ target: RollbackTarget = .steps(1)) throws -> [MigrationOutcome] {
        let applied = try applied()
        let chosen: [AppliedMigration]
        switch target {
        case .steps(let count):
            chosen = Array(applied.suffix(max(count, 0)).reversed())
        case .version(let version):
            guard version == 0 || applied.contains(where: { $0.version == version }) else {
                throw MigrationError.notApplied(version: version)
            }
            chosen = applied.filter { $0.version > version }.reversed()
        }
        var todo: [Migration] = []
        for record in chosen {
            guard let migration = migrations.first(where: { $0.version == record.version }) else {
                throw MigrationError.appliedButMissing(version: record.version, name: record.name)
            }
            guard migration.canRollBack else { throw MigrationError.noDownSection(path: migration.path) }
            todo.append(migration)
        }
        return try withForeignKeysRestored {
            var outcomes: [MigrationOutcome] = []
            for migration in todo {
                try turnForeignKeysOff()
                let outcome = try rollBack(migration)
                outcomes.append(outcome)
                if !outcome.wasSkipped { observer?(.finished(outcome)) }
            }
            return outcomes
        }
    }

    private func rollBack(_ migration: Migration) throws -> MigrationOutcome {
        guard let down = migration.down else { throw MigrationError.noDownSection(path: migration.path) }
        observer?(.started(migration))
        let start = WallClock.milliseconds()
        let note = "the rollback of migration \(migration.versionText)"
        if !down.isTransactional {
            let result = try runner(for: migration).run(
                down.sql, startOffset: down.startOffset, text: migration.text, path: migration.path, isGuarded: false)
            try database.transaction(.immediate) { try Ledger.remove(migration.version, in: database) }
            return outcome(migration, since: start, result)
        }
        try database.execute("BEGIN IMMEDIATE")
        do {
            guard try Ledger.isApplied(migration.version, in: database) else {
                try database.execute("COMMIT")
                return MigrationOutcome(
                    migration: migration, wasSkipped: true, durationMilliseconds: 0, statementCount: 0, changedRows: 0,
                    schemaChanges: nil)
            }
            let before = try SectionRunner.foreignKeyViolations(in: database)
            let result = try runner(for: migration).run(
                down.sql, startOffset: down.startOffset, text: migration.text, path: migration.path, isGuarded: true)
            try checkForeignKeys(of: migration, before: before)
            try Ledger.remove(migration.version, in: database)
            try database.execute("COMMIT")
            return outcome(migration, since: start, result)
        } catch {
            database.rollbackIfNeeded()
            throw failure(error, migration: migration, note: note)
        }
    }

    private func outcome(_ migration: Migration, since start: Double, _ result: SectionRunner.Result) -> MigrationOutcome {
        MigrationOutcome(
            migration: migration, wasSkipped: false, durationMilliseconds: WallClock.milliseconds() - start,
            statementCount: result.statementCount, changedRows: result.changedRows, schemaChanges: nil)
    }
}
