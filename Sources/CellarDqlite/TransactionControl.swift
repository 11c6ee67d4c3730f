/// Recognises transaction control, which a migration may not contain when cellar runs it in its own
/// transaction. A remote server has no authorizer cellar could install, so the check is made on the
/// statement's own words before it is sent, refusing what SQLite's authorizer reports as
/// `SQLITE_TRANSACTION` locally: `BEGIN`, `COMMIT`/`END` and `ROLLBACK` (but not `ROLLBACK TO`, a savepoint).
enum TransactionControl {
    /// The operation as SQLite's authorizer names it (`BEGIN`, `COMMIT`, `ROLLBACK`), or nil for any
    /// other statement.
    static func operation(of statement: String) -> String? {
        let words = leadingWords(of: statement, count: 3)
        switch words.first {
        case "BEGIN": return "BEGIN"
        case "COMMIT", "END": return "COMMIT"
        case "ROLLBACK":
            let next = words.dropFirst().first == "TRANSACTION" ? words.dropFirst(2).first : words.dropFirst().first
            return next == "TO" ? nil : "ROLLBACK"
        default: return nil
        }
    }

    /// Whether `statement` only controls transactions or savepoints (`BEGIN`, `COMMIT`, `END`,
    /// `ROLLBACK`, `SAVEPOINT`, `RELEASE`), which SQLite counts as read-only (`sqlite3_stmt_readonly`).
    static func isTransactionStatement(_ statement: String) -> Bool {
        ["BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"].contains(leadingWords(of: statement, count: 1).first)
    }

    /// The first `count` words (letters only, upper-cased), skipping comments and whitespace.
    static func leadingWords(of statement: String, count: Int) -> [String] {
        let bytes = Array(statement.utf8)
        var words: [String] = []
        var index = StatementSplitter.firstToken(in: bytes, from: 0)
        while words.count < count, index < bytes.count {
            var end = index
            while end < bytes.count, isLetter(bytes[end]) { end += 1 }
            guard end > index else { break }
            words.append(String(decoding: bytes[index..<end], as: UTF8.self).uppercased())
            index = StatementSplitter.firstToken(in: bytes, from: end)
        }
        return words
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
    }
}
