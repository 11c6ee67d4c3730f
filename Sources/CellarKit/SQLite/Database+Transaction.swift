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
        try (self as any SQLConnection).transaction(kind, body)
    }

    /// Rolls back the open transaction, if any; errors are ignored (the transaction may already be gone).
    public func rollbackIfNeeded() {
        (self as any SQLConnection).rollbackIfNeeded()
    }
}
