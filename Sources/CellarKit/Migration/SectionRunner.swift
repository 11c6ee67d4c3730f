/// Runs the SQL of one section (a migration's up or down part, or a seed) statement by statement on
/// the migrator's connection, turning failures into located diagnostics.
struct SectionRunner {
    let database: any SQLConnection
    /// The rehearsal this runs in, if any (a dry run, a replay): what would write outside the
    /// in-memory database is refused.
    var rehearsal: ConnectionPolicy.Rehearsal?
    /// Called every few thousand SQLite instructions with the milliseconds elapsed, for progress.
    let onProgress: ((Double) -> Void)?
    /// A policy the caller installed on the connection for its whole run, used by an unguarded section
    /// (`transaction:false`) instead of one installed for the section: installing an authorizer makes
    /// SQLite compile every kept statement again (``SQLConnection/executeReused(_:_:)``), and one
    /// policy for the run lets it tell what the run's files did (``ConnectionPolicy/sawForeignKeysPragma``).
    var sharedPolicy: ConnectionPolicy?

    /// What running a section did.
    struct Result {
        var statementCount = 0
        /// Rows the section's statements changed (not counting what ``OwnTransactions`` wrote).
        var changedRows = 0
        /// Whether ``OwnTransactions/claim`` claimed the migration inside the transaction of the section's
        /// first statement that writes.
        var wasClaimedInside = false
        /// Whether ``OwnTransactions/claimApart`` claimed it in a transaction of its own.
        var wasClaimedApart = false
        /// Whether the claim could not be made inside: only statements that write nothing ran, and the
        /// transaction the claim was tried in may still be open (roll it back).
        var wasClaimRefused = false
        /// Whether ``OwnTransactions/claimApart`` found the migration applied: only statements that write
        /// nothing ran.
        var wasFoundApplied = false
        /// Whether ``OwnTransactions/finish`` wrote the ledger row and the section's last `COMMIT`, after
        /// it, committed.
        var wasFinishedInside = false
    }

    /// What the migrator writes inside a `transaction:false` section's own commits, so that its claim
    /// and ledger row cost as few commits of their own as can be. What each statement is, is asked of
    /// SQLite as it is prepared: `sqlite3_stmt_readonly` says whether it writes, the authorizer names
    /// `BEGIN` and `COMMIT` (also for `END`) and every action it needs, and `sqlite3_txn_state` tells
    /// whether the write lock is held.
    ///
    /// Statements that write nothing run before the claim. The first statement that writes or
    /// controls a transaction takes it: a `BEGIN` holds the claim in the transaction it opens; a
    /// statement that only reads and writes tables and the schema (no `PRAGMA`, `ATTACH`, `DETACH`,
    /// savepoint or `VACUUM`, which may act otherwise inside a transaction) runs in a `BEGIN
    /// IMMEDIATE` transaction that holds the claim and commits with it, as it would have committed
    /// alone; any other is preceded by ``claimApart``.
    struct OwnTransactions {
        /// Called inside the write transaction that the first statement that writes runs in: the one a
        /// `BEGIN` opened (a deferred `BEGIN` would take no lock, so the runner runs `BEGIN IMMEDIATE` in
        /// its place, which waits for the lock as the claim's own transaction would), or one the runner
        /// opened around that statement. Returns false when the migration cannot be claimed there
        /// (applied or claimed by another process meanwhile).
        var claim: (() throws -> Bool)?
        /// Called before the first statement that writes when it cannot hold the claim: claims in a
        /// transaction of its own (waiting for another process's claim). Returns false when the
        /// migration is applied already.
        var claimApart: (() throws -> Bool)?
        /// Called just before the section's last statement when it is the `COMMIT` of a transaction
        /// holding the write lock, or inside the transaction the runner opened around it, so that the
        /// ledger row is committed with it.
        var finish: (() throws -> Void)?
        /// Whether the runner may open a transaction around the section's last statement to write the
        /// ledger row with it, as ``claim`` does around the first (a local engine: a remote one pays a
        /// round trip for each statement).
        var wrapsStatements = false
        /// Called once the transaction that holds the claim ``claim`` wrote has committed: from then on
        /// the claim is this run's to remove if a later statement fails.
        var claimCommitted: (() -> Void)?
    }

    /// Runs `sql`, which starts at byte `startOffset` of `text` (the whole file at `path`).
    ///
    /// - Parameter isGuarded: whether transaction control is refused (inside cellar's transaction).
    /// - Parameter refusesForeignKeysOn: whether `PRAGMA foreign_keys = ON` is refused too (a migration's
    ///   transaction, where it would silently do nothing).
    /// - Throws: ``MigrationError/failed(_:)`` with a diagnostic located in the file.
    func run(
        _ sql: String, startOffset: Int, text: String, path: String, isGuarded: Bool, refusesForeignKeysOn: Bool = false,
        own: OwnTransactions? = nil
    ) throws -> Result {
        let shared = isGuarded ? nil : sharedPolicy
        let policy = shared ?? ConnectionPolicy(refusesTransactionControl: isGuarded, isSafe: false)
        policy.rehearsal = rehearsal
        policy.refusesForeignKeysOn = isGuarded && refusesForeignKeysOn
        do {
            if let shared {
                shared.clearRefusal()
                defer { shared.rehearsal = nil }
                return try withProgress { try runStatements(sql, on: database, policy: shared, own: own) }
            }
            return try database.withPolicy(policy) {
                try withProgress { try runStatements(sql, on: database, policy: policy, own: own) }
            }
        } catch let error as SQLiteError {
            var message = error.message
            if case .transactionControl(let operation) = policy.lastRefusal {
                message =
                    "\(operation) is not allowed here: cellar runs this in a transaction of its own and commits it "
                    + "(a migration that manages its own transactions needs '-- migrate:up transaction:false')"
            }
            if case .outsideRehearsal(let why) = policy.lastRefusal { message = why }
            if case .ignoredInTransaction(let what) = policy.lastRefusal {
                message =
                    "\(what) cannot change inside a transaction (SQLite would silently ignore it), and cellar runs this "
                    + "in one (a migration that sets it needs '-- migrate:up transaction:false')"
            }
            throw MigrationError.failed(
                Diagnostic(error, path: path, in: SourceText(text, baseOffset: startOffset), message: message))
        }
    }

    private func runStatements<Connection: SQLConnection>(
        _ sql: String, on connection: Connection, policy: ConnectionPolicy, own: OwnTransactions?
    ) throws -> Result {
        var result = Result()
        let changesBefore = try connection.totalChanges
        var ledgerChanges = 0
        var isClaimPending = false
        var needsClaim = own?.claim != nil
        /// Runs a hook, keeping the rows it changes out of the section's count.
        func hook<Value>(_ body: () throws -> Value) throws -> Value {
            let before = try connection.totalChanges
            defer { ledgerChanges += ((try? connection.totalChanges) ?? before) - before }
            return try body()
        }
        /// Claims in a transaction of its own; false when the migration is applied already.
        func claimApart() throws -> Bool {
            guard try own?.claimApart?() ?? true else {
                result.wasFoundApplied = true
                return false
            }
            result.wasClaimedApart = true
            return true
        }
        /// After a statement that writes nothing failed to prepare or run before the claim: claims apart,
        /// which waits for another process's claim and refuses an unfinished one. False when the
        /// migration is applied already (the failure was this run meeting another's work); true when the
        /// failure is this migration's own (or it was claimed already).
        func claimAfterFailure() throws -> Bool {
            guard needsClaim else { return true }
            needsClaim = false
            return try claimApart()
        }
        try connection.withStatements(in: sql) { cursor in
            /// Runs a statement inside the transaction the runner opened for it, then commits it.
            func runAndCommit(_ prepared: StatementCursor<Connection>.Prepared) throws {
                try cursor.run(prepared)
                result.statementCount += 1
                do {
                    try connection.executeReused("COMMIT", [])
                } catch var error as SQLiteError {
                    // A deferred constraint fails here, as it would have failed the statement alone.
                    error.offset = prepared.startOffset
                    throw error
                }
            }
            while true {
                do {
                    try connection.checkCancellation()
                } catch var error as SQLiteError {
                    error.offset = cursor.nextStatementOffset
                    throw error
                }
                policy.lastTransactionOperation = nil
                policy.actionCount = 0
                policy.sawConnectionAction = false
                policy.lastSavepointOperation = nil
                let next: StatementCursor<Connection>.Prepared?
                do {
                    next = try cursor.next()
                } catch {
                    // What cannot be prepared before the claim may stand on another process's claim.
                    guard try claimAfterFailure() else { return }
                    throw error
                }
                guard let prepared = next else { break }
                let operation = policy.lastTransactionOperation
                let isWriter = !prepared.statement.isReadOnly
                // Whether it reads and writes only tables and the schema, as it would inside a transaction.
                let isPlainWriter = isWriter && operation == nil && policy.actionCount > 0 && !policy.sawConnectionAction
                if needsClaim, let claim = own?.claim, operation != nil || policy.lastSavepointOperation != nil || isWriter {
                    needsClaim = false
                    let isAutocommit = try connection.isAutocommit
                    if operation == "BEGIN", isAutocommit {
                        if prepared.statement.isReadOnly {
                            // A deferred BEGIN (SQLite calls it read-only; IMMEDIATE and EXCLUSIVE are not)
                            // would take no lock: BEGIN IMMEDIATE in its place opens the same transaction
                            // with the write lock the claim needs, as the deferred one ended and opened
                            // again would, without the two statements more.
                            try connection.executeReused("BEGIN IMMEDIATE", [])
                        } else {
                            try cursor.run(prepared)
                        }
                        result.statementCount += 1
                        if try !connection.holdsWriteLock {
                            // A deferred BEGIN has read and locked nothing yet: ending it changes nothing.
                            try connection.executeReused("COMMIT", [])
                            try connection.executeReused("BEGIN IMMEDIATE", [])
                        }
                        guard try hook(claim) else {
                            result.wasClaimRefused = true
                            return
                        }
                        result.wasClaimedInside = true
                        isClaimPending = true
                        continue
                    }
                    if isPlainWriter, isAutocommit {
                        try connection.executeReused("BEGIN IMMEDIATE", [])
                        guard try hook(claim) else {
                            result.wasClaimRefused = true
                            return
                        }
                        result.wasClaimedInside = true
                        let finish = cursor.isAtEnd ? own?.finish : nil
                        if let finish { try hook(finish) }
                        try runAndCommit(prepared)
                        own?.claimCommitted?()
                        result.wasFinishedInside = finish != nil
                        continue
                    }
                    guard try claimApart() else { return }
                }
                if let finish = own?.finish, own?.wrapsStatements == true, isPlainWriter, cursor.isAtEnd,
                    !needsClaim, try connection.isAutocommit
                {
                    try connection.executeReused("BEGIN IMMEDIATE", [])
                    try hook(finish)
                    try runAndCommit(prepared)
                    result.wasFinishedInside = true
                    continue
                }
                // The file's last COMMIT, or the RELEASE of a savepoint, which commits when it is the outermost.
                let mayCommit = operation == "COMMIT" || policy.lastSavepointOperation == "RELEASE"
                if let finish = own?.finish, mayCommit, cursor.isAtEnd, try connection.holdsWriteLock {
                    try hook(finish)
                    try cursor.run(prepared)
                    result.statementCount += 1
                    result.wasFinishedInside = try connection.isAutocommit
                    continue
                }
                do {
                    try cursor.run(prepared)
                } catch {
                    guard try claimAfterFailure() else { return }
                    throw error
                }
                result.statementCount += 1
                if isClaimPending, try connection.isAutocommit {
                    isClaimPending = false
                    own?.claimCommitted?()
                }
            }
        }
        result.changedRows = try connection.totalChanges - changesBefore - ledgerChanges
        return result
    }

    private func withProgress<Value>(_ body: () throws -> Value) throws -> Value {
        guard let onProgress else { return try body() }
        let start = WallClock.milliseconds()
        var lastReport = start
        return try database.withProgressHandler(
            every: 10_000,
            {
                let now = WallClock.milliseconds()
                if now - lastReport >= 250 {
                    lastReport = now
                    onProgress(now - start)
                }
                return false
            }, body)
    }

    /// The rows of `PRAGMA foreign_key_check`.
    static func foreignKeyViolations(in database: any SQLConnection) throws -> [ForeignKeyViolation] {
        try ForeignKeyCheck.violations(in: database)
    }
}
