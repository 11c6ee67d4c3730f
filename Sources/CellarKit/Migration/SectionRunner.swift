/// Runs the SQL of one section (a migration's up or down part, or a seed) statement by statement on
/// the migrator's connection, turning failures into located diagnostics.
struct SectionRunner {
    let database: any SQLConnection
    /// The rehearsal this runs in, if any (a dry run, a replay): what would write outside the
    /// in-memory database is refused.
    var rehearsal: ConnectionPolicy.Rehearsal?
    /// Called every few thousand SQLite instructions with the milliseconds elapsed, for progress.
    let onProgress: ((Double) -> Void)?

    /// What running a section did.
    struct Result {
        var statementCount = 0
        /// Rows the section's statements changed (not counting what ``OwnTransactions`` wrote).
        var changedRows = 0
        /// Whether ``OwnTransactions/claim`` claimed the migration inside the section's first transaction.
        var wasClaimedInside = false
        /// Whether the claim could not be made there: only the `BEGIN` ran, and its transaction is still
        /// open (roll it back).
        var wasClaimRefused = false
        /// Whether ``OwnTransactions/finish`` wrote the ledger row and the section's last `COMMIT`, after
        /// it, committed.
        var wasFinishedInside = false
    }

    /// What the migrator writes inside a `transaction:false` section's own transactions, so that its
    /// ledger row costs no commit of its own. Which statements open and close a transaction is asked of
    /// SQLite: the authorizer names `BEGIN` and `COMMIT` (also for `END`) as they are prepared, and
    /// `sqlite3_txn_state` tells whether the write lock is held.
    struct OwnTransactions {
        /// Called inside the write transaction the section's first statement, a `BEGIN`, opened (a
        /// deferred `BEGIN` has taken no lock, so the runner ends it and opens `BEGIN IMMEDIATE`, which
        /// waits for the lock as the claim's own transaction would). Returns false when the migration
        /// cannot be claimed there (applied or claimed by another process meanwhile).
        var claim: (() throws -> Bool)?
        /// Called just before the section's last statement when it is the `COMMIT` of a transaction
        /// holding the write lock, so that the ledger row is committed with it.
        var finish: (() throws -> Void)?
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
        let policy = ConnectionPolicy(refusesTransactionControl: isGuarded, isSafe: false)
        policy.rehearsal = rehearsal
        policy.refusesForeignKeysOn = isGuarded && refusesForeignKeysOn
        do {
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

    private func runStatements(
        _ sql: String, on connection: some SQLConnection, policy: ConnectionPolicy, own: OwnTransactions?
    ) throws -> Result {
        var result = Result()
        let changesBefore = try connection.totalChanges
        var ledgerChanges = 0
        var isClaimPending = false
        /// Runs a hook, keeping the rows it changes out of the section's count.
        func hook<Value>(_ body: () throws -> Value) throws -> Value {
            let before = try connection.totalChanges
            defer { ledgerChanges += ((try? connection.totalChanges) ?? before) - before }
            return try body()
        }
        try connection.withStatements(in: sql) { cursor in
            while true {
                do {
                    try connection.checkCancellation()
                } catch var error as SQLiteError {
                    error.offset = cursor.nextStatementOffset
                    throw error
                }
                policy.lastTransactionOperation = nil
                guard let prepared = try cursor.next() else { break }
                let operation = policy.lastTransactionOperation
                if let claim = own?.claim, result.statementCount == 0, operation == "BEGIN", try connection.isAutocommit {
                    try cursor.run(prepared)
                    result.statementCount += 1
                    if try !connection.holdsWriteLock {
                        // A deferred BEGIN has read and locked nothing yet: ending it changes nothing.
                        try connection.execute("COMMIT")
                        try connection.execute("BEGIN IMMEDIATE")
                    }
                    guard try hook(claim) else {
                        result.wasClaimRefused = true
                        return
                    }
                    result.wasClaimedInside = true
                    isClaimPending = true
                    continue
                }
                if let finish = own?.finish, operation == "COMMIT", cursor.isAtEnd, try connection.holdsWriteLock {
                    try hook(finish)
                    try cursor.run(prepared)
                    result.statementCount += 1
                    result.wasFinishedInside = try connection.isAutocommit
                    continue
                }
                try cursor.run(prepared)
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
