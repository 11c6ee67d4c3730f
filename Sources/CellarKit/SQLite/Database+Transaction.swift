/// The kinds of `BEGIN` (<https://sqlite.org/lang_transaction.html>).
public enum TransactionKind: String, Sendable {
    /// Takes locks when first needed.
    case deferred = "DEFERRED"
    /// Takes the write lock at once; a concurrent writer waits up to the busy timeout.
    case immediate = "IMMEDIATE"
    /// Takes an exclusive lock at once.
    case exclusive = "EXCLUSIVE"
}

extension Database {
    /// Runs `body` in a transaction that commits when `body` returns and rolls back when it throws.
    ///
    /// ```swift
    /// try db.transaction(.immediate) {
    ///     try db.execute("INSERT INTO wineries (name) VALUES (?)", ["Ridge"])
    /// }
    /// ```
    /// - Throws: what `body` throws (after rolling back), or ``SQLiteError`` from `BEGIN` or `COMMIT`.
    @discardableResult
    public func transaction<Result>(_ kind: TransactionKind = .deferred, _ body: () throws -> Result) throws -> Result {
        try execute("BEGIN \(kind.rawValue)")
        let result: Result
        do {
            result = try body()
            try execute("COMMIT")
        } catch {
            rollbackIfNeeded()
            throw error
        }
        return result
    }

    /// Rolls back the open transaction, if any.
    ///
    /// A failed statement may already have rolled the transaction back (`SQLITE_FULL`, `SQLITE_IOERR`,
    /// …, <https://sqlite.org/lang_transaction.html>), and a rollback failure leaves nothing better to
    /// do than report the original error, so errors here are deliberately ignored.
    ///
    /// The rollback runs even when ``cancellation`` is set: stopping must not leave the transaction open.
    public func rollbackIfNeeded() {
        guard !isAutocommit else { return }
        ignoringCancellation { try? execute("ROLLBACK") }
    }

    /// Runs `body` with ``cancellation`` set aside, for the bookkeeping that must still happen after a
    /// stop was asked for (a rollback, the ledger row of work that completed).
    package func ignoringCancellation<Result>(_ body: () throws -> Result) rethrows -> Result {
        let pendingCancellation = cancellation
        cancellation = nil
        defer { cancellation = pendingCancellation }
        return try body()
    }
}
