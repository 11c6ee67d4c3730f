/// Whether a remote connection is inside a transaction, which `sqlite3_get_autocommit` tells on a
/// file and a dqlite server does not: followed from the statements that ran. `BEGIN` opens one, and so
/// does a `SAVEPOINT` outside one; `COMMIT`, `END` and `ROLLBACK` end it, and so does the `RELEASE` of
/// the savepoint that opened it (which SQLite treats as `COMMIT`). `ROLLBACK TO` keeps it open.
struct TransactionState {
    /// Whether a transaction is open.
    private(set) var isOpen = false
    /// The open savepoints, oldest first, by name as SQLite compares them (ASCII case folded).
    private var savepoints: [String] = []
    /// Whether the oldest savepoint opened the transaction.
    private var isOpenedBySavepoint = false

    /// Notes that `statement` ran successfully.
    mutating func didRun(_ statement: String) {
        switch TransactionControl.operation(of: statement) {
        case "BEGIN":
            self = TransactionState()
            isOpen = true
            return
        case "COMMIT", "ROLLBACK":
            end()
            return
        default: break
        }
        let words = Self.words(of: statement, count: 5)
        switch words.first?.uppercased() {
        case "SAVEPOINT":
            guard words.count > 1 else { return }
            if !isOpen {
                isOpen = true
                isOpenedBySavepoint = true
            }
            savepoints.append(words[1].lowercased())
        case "RELEASE":
            guard let name = Self.name(after: 1, in: words), let index = savepoints.lastIndex(of: name) else { return }
            savepoints.removeSubrange(index...)
            if savepoints.isEmpty && isOpenedBySavepoint { end() }
        case "ROLLBACK":
            let to = words.count > 1 && words[1].uppercased() == "TRANSACTION" ? 2 : 1
            guard words.count > to, words[to].uppercased() == "TO", let name = Self.name(after: to + 1, in: words),
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
        return words[hasKeyword ? position + 1 : position].lowercased()
    }

    /// The first `count` tokens of `statement`, comments and whitespace skipped: identifiers and
    /// keywords as written, quoted names (`"a b"`, `[a b]`, `` `a b` ``, `'a b'`) without their quotes.
    static func words(of statement: String, count: Int) -> [String] {
        let bytes = Array(statement.utf8)
        var words: [String] = []
        var index = StatementSplitter.firstToken(in: bytes, from: 0)
        while words.count < count, index < bytes.count {
            let start = index
            let word: [UInt8]
            if let close = closingQuote(of: bytes[index]) {
                var name: [UInt8] = []
                index += 1
                while index < bytes.count {
                    if bytes[index] == close {
                        guard close != UInt8(ascii: "]"), index + 1 < bytes.count, bytes[index + 1] == close else { break }
                        index += 1
                    }
                    name.append(bytes[index])
                    index += 1
                }
                index += 1
                word = name
            } else {
                while index < bytes.count, isIdentifierByte(bytes[index]) { index += 1 }
                word = Array(bytes[start..<index])
            }
            guard index > start else { break }
            words.append(String(decoding: word, as: UTF8.self))
            index = StatementSplitter.firstToken(in: bytes, from: index)
        }
        return words
    }

    private static func closingQuote(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "'"): byte
        case UInt8(ascii: "["): UInt8(ascii: "]")
        default: nil
        }
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }
}
