extension Migrator {
    /// Applies pending migrations in version order (docs/migrator/applying.md).
    ///
    /// Each migration runs in its own `BEGIN IMMEDIATE` transaction with its ledger row; a failure rolls
    /// that migration back and stops, leaving earlier ones of the run applied (unless
    /// ``Options/isAllOrNothing``, which runs them all in one transaction).
    /// - Returns: what each migration did, in order (skipped ones were applied meanwhile by another process).
    /// - Throws: ``MigrationError`` (a failure carries a located diagnostic and a note saying the version
    ///   the database is still at), or ``SQLiteError`` when the database cannot be locked or written.
    @discardableResult
    public func migrate(_ options: Options = Options()) throws -> [MigrationOutcome] {
        let todo = try validate(options)
        guard !todo.isEmpty else { return [] }
        return try withForeignKeysRestored {
            if options.isAllOrNothing {
                try turnForeignKeysOff()
                return try applyAll(todo)
            }
            defer { database.releaseReusedStatements() }
            return try withRunPolicy(if: todo.contains { !$0.up.isTransactional }) {
                var outcomes: [MigrationOutcome] = []
                for (index, migration) in todo.enumerated() {
                    try turnForeignKeysOff()
                    if database.requestsAreRoundTrips {
                        // What runs after this migration's commit, prepared while that commit waits.
                        let next = index + 1 < todo.count ? todo[index + 1] : nil
                        database.willRunNext(next.flatMap { !$0.isCheckpoint && $0.up.isTransactional ? $0.up.sql : nil })
                    }
                    let outcome =
                        if migration.isCheckpoint, let checkpoint { try apply(checkpoint) } else if migration.up.isTransactional {
                            try apply(migration)
                        } else { try applyWithoutTransaction(migration) }
                    outcomes.append(outcome)
                    if !outcome.wasSkipped { observer?(.finished(outcome)) }
                }
                return outcomes
            }
        }
    }

    /// Runs `body` with ``runPolicy`` installed on a local database when `isNeeded` (the run has
    /// `transaction:false` migrations): one authorizer for the whole run instead of one installed and
    /// removed per file, which would make SQLite compile the migrator's kept statements again each time.
    private func withRunPolicy<Result>(if isNeeded: Bool, _ body: () throws -> Result) throws -> Result {
        guard isNeeded, database.localDatabase != nil else { return try body() }
        let policy = ConnectionPolicy(refusesTransactionControl: false, isSafe: false)
        runPolicy = policy
        defer { runPolicy = nil }
        return try database.withPolicy(policy, body)
    }

    /// Applies pending migrations up to and including `version`.
    ///
    /// - Throws: as ``migrate(_:)``, and ``MigrationError/unknownVersion(_:)`` when no file has `version`.
    @discardableResult
    public func migrate(to version: Int64) throws -> [MigrationOutcome] {
        try migrate(Options(target: version))
    }

    /// Checks, without running anything, what ``migrate(_:)`` checks before it starts: the target, the
    /// order of pending migrations, that none is still an unwritten template and, for `--all-or-nothing`,
    /// that none needs to run outside a transaction.
    ///
    /// - Returns: the migrations ``migrate(_:)`` would apply.
    /// - Throws: the ``MigrationError`` ``migrate(_:)`` would throw before running anything.
    public func validate(_ options: Options = Options()) throws -> [Migration] {
        let todo = try pending(options)
        if let unwritten = todo.first(where: \.isUnwritten) { throw MigrationError.unwritten(path: unwritten.path) }
        if options.isAllOrNothing, let first = todo.first(where: { !$0.up.isTransactional }) {
            throw MigrationError.nonTransactionalInAllOrNothing(path: first.path)
        }
        return todo
    }

    /// Steps 2–6 for one migration.
    private func apply(_ migration: Migration) throws -> MigrationOutcome {
        try applyInTransaction(migration, note: "migration \(migration.versionText)") { start in
            let lookup = try Ledger.lookUp(migration.version, definition: &ledgerDefinition, in: database)
            if lookup.isApplied { return nil }
            // No table declares a foreign key (read under the write lock): none is violated before, and
            // none can be after unless the migration declares one.
            let before = lookup.mayHaveForeignKeys ? try known.violations ?? SectionRunner.foreignKeyViolations(in: database) : []
            let checksAfter = lookup.mayHaveForeignKeys || ForeignKeyCheck.mayDeclareForeignKeys(migration.up.sql)
            let (outcome, after) = try runUp(
                migration, since: start, violationsBefore: before, checkingForeignKeys: checksAfter)
            try Ledger.recordAndCommit(
                migration, durationMilliseconds: Int64(outcome.durationMilliseconds.rounded()), in: database)
            return (outcome, after)
        }
    }

    /// The checkpoint on a database with no ledger: its SQL, the foreign-key check and its ledger rows
    /// (`kind = 'checkpoint'`), in one `BEGIN IMMEDIATE` transaction. Skipped when another process built
    /// the database meanwhile (the ledger is read again under the write lock).
    private func apply(_ checkpoint: Checkpoint) throws -> MigrationOutcome {
        try applyInTransaction(checkpoint.body, note: "the checkpoint \(checkpoint.path)") { start in
            ledgerDefinition = try Ledger.prepareMigrations(in: database)
            guard try isLedgerStillEmpty(for: checkpoint) else { return nil }
            let before = try SectionRunner.foreignKeyViolations(in: database)
            let (outcome, after) = try runUp(checkpoint.body, since: start, violationsBefore: before)
            try Ledger.record(checkpoint, durationMilliseconds: Int64(outcome.durationMilliseconds.rounded()), in: database)
            try database.execute("COMMIT")
            return (outcome, after)
        }
    }

    /// One migration (or the checkpoint) in its own `BEGIN IMMEDIATE` transaction: `body` runs inside
    /// it from the migration's start time and returns the outcome and the foreign-key violations after
    /// it, having committed, or nil when another process applied it meanwhile (then this commits the
    /// empty transaction and the migration is skipped). A failure rolls back, forgets what this run
    /// knew about the database, and is reported with `note` as what the database is still at.
    private func applyInTransaction(
        _ migration: Migration, note: String,
        _ body: (_ start: Double) throws -> (MigrationOutcome, [ForeignKeyViolation])?
    ) throws -> MigrationOutcome {
        observer?(.started(migration))
        let start = WallClock.milliseconds()
        do {
            // Inside: a stop that lands on the BEGIN is reported as one inside the migration.
            try database.execute("BEGIN IMMEDIATE")
            guard let (outcome, after) = try body(start) else {
                try database.execute("COMMIT")
                known.violations = nil
                return skipped(migration)
            }
            known.violations = after
            return outcome
        } catch {
            known = RunKnowledge()
            database.rollbackIfNeeded()
            throw failure(error, migration: migration, note: note)
        }
    }

    /// Whether the ledger is still empty, read under the write lock before the checkpoint runs: false
    /// when another process built the database through the checkpoint's version meanwhile.
    ///
    /// - Throws: ``MigrationError/failed(_:)`` when another process applied fewer migrations meanwhile.
    private func isLedgerStillEmpty(for checkpoint: Checkpoint) throws -> Bool {
        guard let newest = try Ledger.appliedMigrations(in: database, includingUnfinished: true).last else { return true }
        if newest.version >= checkpoint.version { return false }
        throw MigrationError.failed(
            Diagnostic(
                path: checkpoint.path,
                message: "another process applied migrations up to version \(newest.version) while this run waited; "
                    + "the checkpoint only builds a database with no ledger: run again to go on from there"))
    }

    /// A dry run on the database itself, for an engine that cannot copy it (a remote one): every
    /// pending migration in one transaction, as `--all-or-nothing` runs them, which is then rolled back.
    ///
    /// - Throws: as ``migrate(_:)`` with ``Options/isAllOrNothing``: a `transaction:false` migration
    ///   cannot be rehearsed this way (``MigrationError/nonTransactionalInAllOrNothing(path:)``).
    func rehearseInRolledBackTransaction(_ options: Options) throws -> [MigrationOutcome] {
        var together = options
        together.isAllOrNothing = true
        let todo = try validate(together)
        guard !todo.isEmpty else { return [] }
        return try withForeignKeysRestored {
            try turnForeignKeysOff()
            return try applyAll(todo, committing: false, failsAsOne: options.isAllOrNothing)
        }
    }

    /// Every migration of `todo` in one transaction (`--all-or-nothing`), committed, or rolled back at
    /// the end when not `committing` (a dry run). `failsAsOne`: a failure's note names the whole run
    /// rather than the failing migration.
    private func applyAll(
        _ todo: [Migration], committing: Bool = true, failsAsOne: Bool = true
    ) throws -> [MigrationOutcome] {
        var outcomes: [MigrationOutcome] = []
        let note = "all \(todo.count) migrations of this run (one transaction)"
        var current = todo[0]
        do {
            try database.execute("BEGIN IMMEDIATE")
            try Ledger.prepareMigrations(in: database)
            let before = try SectionRunner.foreignKeyViolations(in: database)
            for migration in todo {
                current = migration
                if migration.isCheckpoint, let checkpoint {
                    guard try isLedgerStillEmpty(for: checkpoint) else {
                        outcomes.append(skipped(migration))
                        continue
                    }
                    observer?(.started(migration))
                    let (outcome, _) = try runUp(migration, since: WallClock.milliseconds(), violationsBefore: before)
                    try Ledger.record(
                        checkpoint, durationMilliseconds: Int64(outcome.durationMilliseconds.rounded()), in: database)
                    outcomes.append(outcome)
                    continue
                }
                if try Ledger.isApplied(migration.version, in: database) {
                    outcomes.append(skipped(migration))
                    continue
                }
                observer?(.started(migration))
                let (outcome, _) = try runUp(migration, since: WallClock.milliseconds(), violationsBefore: before)
                try Ledger.record(migration, durationMilliseconds: Int64(outcome.durationMilliseconds.rounded()), in: database)
                outcomes.append(outcome)
            }
            try database.execute(committing ? "COMMIT" : "ROLLBACK")
        } catch {
            database.rollbackIfNeeded()
            throw failure(error, migration: current, note: failsAsOne ? note : "migration \(current.versionText)")
        }
        for outcome in outcomes where !outcome.wasSkipped { observer?(.finished(outcome)) }
        return outcomes
    }

    /// A `transaction:false` migration: claimed, run statement by statement in autocommit mode, and its
    /// claim turned into the ledger row after its last statement.
    ///
    /// On a local database the claim is written with the file's first statement that writes (statements
    /// that write nothing run before it): inside the transaction that statement opens when it is a
    /// `BEGIN`, or with the statement itself in one `BEGIN IMMEDIATE` transaction when it writes only
    /// tables and the schema; in a short transaction of its own before it otherwise. The ledger row is
    /// written just before the file's last `COMMIT`, or with the file's last statement when that one
    /// holds the claim the same way, or else in a transaction of its own. A file that writes and is not
    /// claimed apart thus costs at most one commit more than its statements make (see
    /// ``SectionRunner/OwnTransactions``); one that writes nothing costs one, its claim and row together.
    private func applyWithoutTransaction(_ migration: Migration) throws -> MigrationOutcome {
        // Whether foreign keys are off stays known when SQLite's authorizer saw no statement of the
        // file (nor any other) name `PRAGMA foreign_keys`, the one way to change it.
        let foreignKeysWereOn = known.foreignKeysAreOn
        runPolicy?.sawForeignKeysPragma = false
        known = RunKnowledge()
        defer {
            known = RunKnowledge()
            if let runPolicy, !runPolicy.sawForeignKeysPragma { known.foreignKeysAreOn = foreignKeysWereOn }
        }
        var start = WallClock.milliseconds()
        var own = SectionRunner.OwnTransactions()
        own.finish = { [self] in
            try Ledger.finish(
                migration, durationMilliseconds: Int64((WallClock.milliseconds() - start).rounded()), isThisRunsClaim: true,
                in: database)
        }
        // Whether the ledger holds a committed claim of this run, to be removed if the migration fails.
        var isClaimed = false
        let started = { [self] in
            observer?(.started(migration))
            if migration.isEmpty { observer?(.emptySection(migration, isDown: false)) }
            start = WallClock.milliseconds()
        }
        if database.tracksTransactions {
            own.wrapsStatements = true
            own.claimCommitted = { isClaimed = true }
            own.claim = { [self] in
                guard
                    try Ledger.recordUnlessPresent(
                        migration, kind: Ledger.unfinishedKind, durationMilliseconds: 0, definition: &ledgerDefinition,
                        in: database)
                else { return false }
                started()
                return true
            }
            own.claimApart = { [self] in
                guard try claim(migration) else { return false }
                isClaimed = true
                started()
                return true
            }
        } else {
            guard try claim(migration) else { return skipped(migration) }
            isClaimed = true
            started()
        }
        let rowsBefore = collectsSchemaChanges ? try TableRowCounts.read(database) : [:]
        var result: SectionRunner.Result
        do {
            result = try runner(for: migration).run(
                migration.up.sql, startOffset: migration.up.startOffset, text: migration.text, path: migration.path,
                isGuarded: false, own: own)
            if result.wasFoundApplied { return skipped(migration) }
            if result.wasClaimRefused {
                // Applied or claimed by another process meanwhile: only statements that write nothing ran here.
                database.rollbackIfNeeded()
                guard try claim(migration) else { return skipped(migration) }
                isClaimed = true
                started()
                own.claim = nil
                own.claimApart = nil
                own.claimCommitted = nil
                result = try runner(for: migration).run(
                    migration.up.sql, startOffset: migration.up.startOffset, text: migration.text, path: migration.path,
                    isGuarded: false, own: own)
            }
        } catch {
            database.rollbackIfNeeded()
            // A claim written with the file's first writing statement went with it if that was rolled back.
            if isClaimed { release(migration) }
            throw failure(error, migration: migration, note: nonTransactionalNote(migration))
        }
        guard try database.isAutocommit else {
            database.rollbackIfNeeded()
            if isClaimed { release(migration) }
            throw MigrationError.failed(
                Diagnostic(
                    path: migration.path, message: "the migration left a transaction open (BEGIN without COMMIT)",
                    notes: [rolledBackNote("the open transaction was")]))
        }
        let duration = WallClock.milliseconds() - start
        if own.claim != nil, !result.wasClaimedInside, !result.wasClaimedApart {
            // Nothing in the file wrote: its claim and ledger row are one transaction, after it.
            guard try claim(migration, finishedIn: duration) else { return skipped(migration) }
            observer?(.started(migration))
            if migration.isEmpty { observer?(.emptySection(migration, isDown: false)) }
        } else if !result.wasFinishedInside {
            try database.transaction(.immediate) {
                try Ledger.finish(migration, durationMilliseconds: Int64(duration.rounded()), isThisRunsClaim: true, in: database)
            }
        }
        var outcome = MigrationOutcome(
            migration: migration, wasSkipped: false, durationMilliseconds: duration, statementCount: result.statementCount,
            changedRows: result.changedRows, schemaChanges: nil)
        if collectsSchemaChanges {
            outcome.rowCountChanges = TableRowCounts.changes(from: rowsBefore, to: try TableRowCounts.read(database))
        }
        return outcome
    }

    /// Claims `migration` for this connection in a short `BEGIN IMMEDIATE` transaction, so that racing
    /// deploys run it once. While another process's claim is unfinished, waits for it (polling, up to
    /// the busy timeout).
    ///
    /// With `finishedIn` (the milliseconds its statements took), records it as applied instead: a
    /// migration whose statements wrote nothing, so that nothing needed claiming before them.
    ///
    /// - Returns: true when claimed (or recorded) here; false when it is applied already.
    /// - Throws: ``MigrationError/unfinished(version:name:startedAt:)`` when the other claim did not finish
    ///   within the busy timeout.
    private func claim(_ migration: Migration, finishedIn duration: Double? = nil) throws -> Bool {
        let deadline = WallClock.milliseconds() + Double(busyTimeout)
        while true {
            let existing = try database.transaction(.immediate) { () -> AppliedMigration? in
                let isWritten = try Ledger.recordUnlessPresent(
                    migration, kind: duration == nil ? Ledger.unfinishedKind : "applied",
                    durationMilliseconds: Int64((duration ?? 0).rounded()), definition: &ledgerDefinition, in: database)
                guard !isWritten else { return nil }
                return try Ledger.appliedMigrations(in: database, includingUnfinished: true).first {
                    $0.version == migration.version
                }
            }
            guard let existing else { return true }
            guard existing.isUnfinished else { return false }
            if WallClock.milliseconds() >= deadline {
                throw MigrationError.unfinished(version: migration.version, name: existing.name, startedAt: existing.appliedAt)
            }
            try database.checkCancellation()
            WallClock.sleep(milliseconds: 20)
        }
    }

    /// Removes this run's claim of a `transaction:false` migration that failed, so that it reads as pending.
    private func release(_ migration: Migration) {
        _ = try? database.transaction(.immediate) { try Ledger.remove(migration.version, in: database) }
    }

    private func nonTransactionalNote(_ migration: Migration) -> String {
        "migration \(migration.versionText) runs with transaction:false, so its statements before the failing one stay done; "
            + "its open transaction, if any, was"
    }

    // MARK: - Shared steps

    /// Step 4 and 5: the up section, then the foreign-key check against the violations found before
    /// (left out when `checkingForeignKeys` is false: the caller knows no foreign key exists).
    ///
    /// - Returns: what the migration did, and the violations after it.
    private func runUp(
        _ migration: Migration, since start: Double, violationsBefore: [ForeignKeyViolation], checkingForeignKeys: Bool = true
    ) throws -> (MigrationOutcome, [ForeignKeyViolation]) {
        if migration.isEmpty { observer?(.emptySection(migration, isDown: false)) }
        let schemaBefore = collectsSchemaChanges ? try SchemaChanges.snapshot(of: database) : [:]
        let rowsBefore = collectsSchemaChanges ? try TableRowCounts.read(database) : [:]
        let result = try runner(for: migration).run(
            migration.up.sql, startOffset: migration.up.startOffset, text: migration.text, path: migration.path,
            isGuarded: true, refusesForeignKeysOn: true)
        let after = checkingForeignKeys ? try checkForeignKeys(of: migration, before: violationsBefore) : []
        let changes =
            collectsSchemaChanges ? SchemaChanges(before: schemaBefore, after: try SchemaChanges.snapshot(of: database)) : nil
        var outcome = MigrationOutcome(
            migration: migration, wasSkipped: false, durationMilliseconds: WallClock.milliseconds() - start,
            statementCount: result.statementCount, changedRows: result.changedRows, schemaChanges: changes)
        if collectsSchemaChanges {
            outcome.rowCountChanges = TableRowCounts.changes(from: rowsBefore, to: try TableRowCounts.read(database))
        }
        return (outcome, after)
    }

    /// Fails on violations that were not there before; reports the old ones as a warning.
    ///
    /// - Returns: the violations now (all old ones).
    @discardableResult
    func checkForeignKeys(of migration: Migration, before: [ForeignKeyViolation]) throws -> [ForeignKeyViolation] {
        let after = try SectionRunner.foreignKeyViolations(in: database)
        guard !after.isEmpty else { return after }
        let old = Set(before)
        let new = after.filter { !old.contains($0) }
        if !new.isEmpty {
            throw MigrationError.foreignKeyViolations(path: migration.path, violations: new, notes: [])
        }
        observer?(.foreignKeyWarning(migration, after))
        return after
    }

    func runner(for migration: Migration) -> SectionRunner {
        var runner = SectionRunner(database: database, onProgress: nil)
        if let observer { runner = SectionRunner(database: database) { observer(.progress(migration, elapsedMilliseconds: $0)) } }
        runner.rehearsal = isRehearsal ? .dryRun : nil
        runner.sharedPolicy = runPolicy
        return runner
    }

    private func skipped(_ migration: Migration) -> MigrationOutcome {
        MigrationOutcome(
            migration: migration, wasSkipped: true, durationMilliseconds: 0, statementCount: 0, changedRows: 0, schemaChanges: nil
        )
    }

    /// `error` with the "rolled back; still at version N" note, read after the rollback.
    func failure(_ error: any Error, migration: Migration, note: String) -> any Error {
        let rolledBack = rolledBackNote(note)
        switch error {
        case MigrationError.failed(var diagnostic):
            diagnostic.notes.append(rolledBack)
            return MigrationError.failed(diagnostic)
        case MigrationError.foreignKeyViolations(let path, let violations, let notes):
            return MigrationError.foreignKeyViolations(path: path, violations: violations, notes: notes + [rolledBack])
        case let error as SQLiteError where !error.isLockContention:
            return MigrationError.failed(
                Diagnostic(path: migration.path, message: error.message, notes: [rolledBack], underlying: error))
        default:
            return error
        }
    }
}
