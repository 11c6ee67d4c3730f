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
    /// Migrations recorded by ``baseline(through:)`` are never undone: `.steps` beyond the migrations
    /// above the newest baseline and `.version` below it are refused, while `.version(0)` stops above it.
    /// Nor are those a ``Checkpoint`` recorded: going below its version is refused
    /// (``MigrationError/crossesCheckpoint(path:version:)``), `.version(0)` too.
    /// The transaction that leaves no migration applied also empties `cellar_seeds`: the seeds' data went
    /// with the tables. Every migration to undo is checked first: its file must exist and have a down
    /// section (one of comments only undoes nothing but the ledger row).
    /// - Returns: what each rollback did, newest first.
    /// - Throws: ``MigrationError`` (``MigrationError/tooManySteps(requested:undoable:baseline:)``,
    ///   ``MigrationError/crossesBaseline(_:)``, ``MigrationError/noDownSection(path:)``,
    ///   ``MigrationError/appliedButMissing(version:name:)``, a failure with a located diagnostic); a
    ///   refusal changes nothing.
    @discardableResult
    public func rollback(_ target: RollbackTarget = .steps(1)) throws -> [MigrationOutcome] {
        try withForeignKeysRestored {
            var outcomes: [MigrationOutcome] = []
            var plan: [Migration]?
            while true {
                try turnForeignKeysOff()
                // What to undo is read under the write lock, so that a migration another process applies
                // or undoes meanwhile is seen (never undo 2 while 3, applied a moment ago, stays).
                try database.execute("BEGIN IMMEDIATE")
                let next: Migration?
                do {
                    let recorded = try Ledger.appliedMigrations(in: database, includingUnfinished: true)
                    if let unfinished = recorded.first(where: \.isUnfinished) {
                        throw MigrationError.unfinished(
                            version: unfinished.version, name: unfinished.name, startedAt: unfinished.appliedAt)
                    }
                    let applied = recorded
                    var remaining = try plan ?? choose(target, from: applied)
                    next = try nextToUndo(&remaining, applied: applied)
                    plan = remaining
                } catch {
                    database.rollbackIfNeeded()
                    throw error
                }
                guard let next else {
                    try database.execute("COMMIT")
                    return outcomes
                }
                do {
                    // A ledger made before the `kind` column gets it in the first write transaction.
                    try Ledger.prepareMigrations(in: database)
                } catch {
                    database.rollbackIfNeeded()
                    throw error
                }
                let outcome = try rollBack(next)
                outcomes.append(outcome)
                observer?(.finished(outcome))
            }
        }
    }

    /// The migrations `target` undoes, newest first, checked: each has a file and a down section.
    private func choose(_ target: RollbackTarget, from applied: [AppliedMigration]) throws -> [Migration] {
        let baseline = applied.last(where: \.isBaseline)
        // A database built from a checkpoint never goes below it: the checkpoint has no down section.
        let born = applied.last(where: \.isCheckpoint)
        let floor = max(baseline?.version ?? 0, born?.version ?? 0)
        let undoable = applied.filter { $0.version > floor }
        let chosen: [AppliedMigration]
        let crossesCheckpoint = MigrationError.crossesCheckpoint(
            path: checkpoint?.path ?? Checkpoint.fileName, version: born?.version ?? 0)
        switch target {
        case .steps(let count):
            guard count <= undoable.count else {
                if let born, born.version >= (baseline?.version ?? 0) { throw crossesCheckpoint }
                throw MigrationError.tooManySteps(requested: count, undoable: undoable.count, baseline: baseline)
            }
            chosen = Array(undoable.suffix(max(count, 0)).reversed())
        case .version(let version):
            guard version == 0 || applied.contains(where: { $0.version == version }) else {
                throw MigrationError.notApplied(version: version)
            }
            if let born, version < born.version { throw crossesCheckpoint }
            if let baseline, version != 0, version < baseline.version { throw MigrationError.crossesBaseline(baseline) }
            chosen = undoable.filter { $0.version > version }.reversed()
        }
        var todo: [Migration] = []
        for record in chosen {
            guard let migration = migrations.first(where: { $0.version == record.version }) else {
                throw MigrationError.appliedButMissing(version: record.version, name: record.name)
            }
            guard migration.canRollBack else { throw MigrationError.noDownSection(path: migration.path) }
            todo.append(migration)
        }
        return todo
    }

    /// The first migration of `plan` still applied (those another process undid meanwhile are dropped),
    /// which must be the newest applied one.
    ///
    /// - Throws: ``MigrationError/appliedMeanwhile(version:before:)`` when another process applied a newer
    ///   migration since the plan was made.
    private func nextToUndo(_ plan: inout [Migration], applied: [AppliedMigration]) throws -> Migration? {
        let versions = Set(applied.map(\.version))
        plan.removeAll { !versions.contains($0.version) }
        guard let next = plan.first else { return nil }
        if let newest = applied.last, newest.version != next.version {
            throw MigrationError.appliedMeanwhile(version: newest.version, before: next.version)
        }
        return next
    }

    /// Deletes `migration`'s ledger row inside the caller's transaction and, when no migration is left
    /// applied, every seed's row too (a rollback to 0 dropped their data with the tables).
    private func forget(_ migration: Migration) throws {
        try Ledger.remove(migration.version, in: database)
        if try Ledger.appliedMigrations(in: database).isEmpty { try Ledger.removeAllSeeds(in: database) }
    }

    /// Undoes `migration`, called inside the `BEGIN IMMEDIATE` transaction that chose it.
    private func rollBack(_ migration: Migration) throws -> MigrationOutcome {
        guard let down = migration.down else {
            database.rollbackIfNeeded()
            throw MigrationError.noDownSection(path: migration.path)
        }
        observer?(.started(migration))
        if !down.hasStatements { observer?(.emptySection(migration, isDown: true)) }
        let start = WallClock.milliseconds()
        let note = "the rollback of migration \(migration.versionText)"
        if !down.isTransactional {
            // Outside a transaction it may change anything, `PRAGMA foreign_keys` too.
            known = RunKnowledge()
            defer { known = RunKnowledge() }
            try database.execute("COMMIT")
            let result = try runner(for: migration).run(
                down.sql, startOffset: down.startOffset, text: migration.text, path: migration.path, isGuarded: false)
            try database.transaction(.immediate) { try forget(migration) }
            return outcome(migration, since: start, result)
        }
        do {
            let before = try SectionRunner.foreignKeyViolations(in: database)
            let result = try runner(for: migration).run(
                down.sql, startOffset: down.startOffset, text: migration.text, path: migration.path, isGuarded: true,
                refusesForeignKeysOn: true)
            try checkForeignKeys(of: migration, before: before)
            try forget(migration)
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
