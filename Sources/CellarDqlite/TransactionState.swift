import CellarKit

/// Whether a remote connection is inside a transaction, which `sqlite3_get_autocommit` tells on a
/// file and a dqlite server does not: followed from the statements that ran, as SQLite's authorizer
/// names them on the local prepare (``StatementFacts``). `BEGIN` opens one, and so does a `SAVEPOINT`
/// outside one; `COMMIT`, `END` and `ROLLBACK` end it, and so does the `RELEASE` of the savepoint that
/// opened it (which SQLite treats as `COMMIT`). `ROLLBACK TO` keeps it open.
struct TransactionState {
    /// Whether a transaction is open.
    private(set) var isOpen = false
    /// The open savepoints, oldest first, by name as SQLite compares them (ASCII letters folded).
    private var savepoints: [String] = []
    /// Whether the oldest savepoint opened the transaction.
    private var isOpenedBySavepoint = false

    /// Notes that a statement with these facts ran successfully.
    mutating func didRun(_ facts: StatementFacts) {
        switch facts.transactionOperation {
        case "BEGIN":
            self = TransactionState()
            isOpen = true
            return
        case "COMMIT", "ROLLBACK":
            end()
            return
        default: break
        }
        guard let savepoint = facts.savepoint else { return }
        let name = Self.folded(savepoint.name)
        switch savepoint.operation {
        case "BEGIN":
            if !isOpen {
                isOpen = true
                isOpenedBySavepoint = true
            }
            savepoints.append(name)
        case "RELEASE":
            guard let index = savepoints.lastIndex(of: name) else { return }
            savepoints.removeSubrange(index...)
            if savepoints.isEmpty && isOpenedBySavepoint { end() }
        case "ROLLBACK":
            guard let index = savepoints.lastIndex(of: name) else { return }
            savepoints.removeSubrange((index + 1)...)
        default: break
        }
    }

    /// Notes that no transaction is open any more (it was committed, rolled back, or lost with the leader).
    mutating func end() {
        self = TransactionState()
    }

    /// `name` with ASCII letters lower-cased, as SQLite compares savepoint names.
    private static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
