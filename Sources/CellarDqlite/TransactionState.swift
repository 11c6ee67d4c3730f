/// Whether a remote connection is inside a transaction, which `sqlite3_get_autocommit` tells on a
/// file and a dqlite server does not: followed from the statements that ran. `BEGIN` opens one, and so
/// does a `SAVEPOINT` outside one; `COMMIT`, `END` and `ROLLBACK` end it, and so does the `RELEASE` of
/// the savepoint that opened it (which SQLite treats as `COMMIT`). `ROLLBACK TO` keeps it open.
struct TransactionState {
    /// Whether a transaction is open.
    private(set) var isOpen = false
    /// The open savepoints, oldest first, by name as SQLite compares them (ASCII letters folded).
    private var savepoints: [String] = []
    /// Whether the oldest savepoint opened the transaction.
    private var isOpenedBySavepoint = false

    /// Notes that `statement` ran successfully.
    mutating func didRun(_ statement: String) {
        let words = TransactionControl.leadingTokens(of: statement, count: 5)
        let keywords = words.map { $0.uppercased() }
        switch TransactionControl.operation(ofWords: keywords) {
        case "BEGIN":
            self = TransactionState()
            isOpen = true
            return
        case "COMMIT", "ROLLBACK":
            end()
            return
        default: break
        }
        switch keywords.first {
        case "SAVEPOINT":
            guard words.count > 1 else { return }
            if !isOpen {
                isOpen = true
                isOpenedBySavepoint = true
            }
            savepoints.append(Self.folded(words[1]))
        case "RELEASE":
            guard let name = Self.name(after: 1, in: words), let index = savepoints.lastIndex(of: name) else { return }
            savepoints.removeSubrange(index...)
            if savepoints.isEmpty && isOpenedBySavepoint { end() }
        case "ROLLBACK":
            let to = keywords.count > 1 && keywords[1] == "TRANSACTION" ? 2 : 1
            guard keywords.count > to, keywords[to] == "TO", let name = Self.name(after: to + 1, in: words),
                let index = savepoints.lastIndex(of: name)
            else { return }
            savepoints.removeSubrange((index + 1)...)
        default: break
        }
    }

    /// Notes that no transaction is open any more (it was committed, rolled back, or lost with the leader).
    mutating func end() {
        self = TransactionState()
    }

    /// The savepoint name at `position`, past an optional `SAVEPOINT` keyword, case folded.
    private static func name(after position: Int, in words: [String]) -> String? {
        guard words.count > position else { return nil }
        let hasKeyword = words.count > position + 1 && words[position].uppercased() == "SAVEPOINT"
        return folded(words[hasKeyword ? position + 1 : position])
    }

    /// `name` with ASCII letters lower-cased, as SQLite compares savepoint names.
    private static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
