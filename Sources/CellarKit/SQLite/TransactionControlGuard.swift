/// Refuses `BEGIN`, `COMMIT`, `END` and `ROLLBACK` (without `TO`) at prepare time, so that a script
/// running inside a transaction cellar opened cannot end it or start another. Savepoints stay allowed.
///
/// ```swift
/// let guard = TransactionControlGuard()
/// try guard.install(on: db)
/// do { try db.execute(script) } catch where guard.refusedOperation != nil { … }
/// ```
public final class TransactionControlGuard {
    /// The operation refused most recently (`BEGIN`, `COMMIT` or `ROLLBACK`), if any.
    public private(set) var refusedOperation: String?

    /// Creates a guard that refuses nothing until installed.
    public init() {}

    /// Makes `database` refuse transaction control from now on (replacing its authorizer).
    public func install(on database: Database) throws {
        refusedOperation = nil
        try database.setAuthorizer { [weak self] request in
            guard request.action == .transaction else { return .allow }
            self?.refusedOperation = request.first
            return .deny
        }
    }

    /// Removes the authorizer from `database`.
    public func uninstall(from database: Database) throws {
        try database.setAuthorizer(nil)
    }
}

@available(*, unavailable)
extension TransactionControlGuard: Sendable {}
