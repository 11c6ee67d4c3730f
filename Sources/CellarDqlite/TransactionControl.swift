/// Recognises transaction control, which a migration may not contain when cellar runs it in its own
/// transaction. A remote server has no authorizer cellar could install, so the check is made on the
/// statement's own words before it is sent, refusing what SQLite's authorizer reports as
/// `SQLITE_TRANSACTION` locally: `BEGIN`, `COMMIT`/`END` and `ROLLBACK` (but not `ROLLBACK TO`, a savepoint).
enum TransactionControl {
    /// The operation as SQLite's authorizer names it (`BEGIN`, `COMMIT`, `ROLLBACK`), or nil for any
    /// other statement.
    static func operation(of statement: String) -> String? {
        operation(ofWords: leadingWords(of: statement, count: 3))
    }

    /// ``operation(of:)`` from a statement's first words, upper-cased (``leadingWords(of:count:)``).
    static func operation(ofWords words: [String]) -> String? {
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

    /// The first `count` words, upper-cased, skipping comments and whitespace (see ``leadingTokens(of:count:)``).
    static func leadingWords(of statement: String, count: Int) -> [String] {
        leadingTokens(of: statement, count: count).map { $0.uppercased() }
    }

    /// The first `count` tokens of `statement`, comments and whitespace skipped: identifiers and
    /// keywords as written, quoted names (`"a b"`, `[a b]`, `` `a b` ``, `'a b'`) without their quotes.
    static func leadingTokens(of statement: String, count: Int) -> [String] {
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
