internal import CSQLite
import CellarKit
import DqliteClient

/// A statement prepared on the cluster's leader, stepped like a local one: a statement that returns
/// rows runs as a dqlite QUERY whose rows are read frame by frame; any other runs as an EXEC, whose
/// change count feeds the connection's total. `BEGIN` waits out `SQLITE_BUSY` up to the busy timeout.
package final class RemoteStatement: SQLStatement {
    package let sql: String
    private let connection: RemoteConnection
    private let prepared: DqliteStatement
    private let returnsRows: Bool
    private var parameters: [DqliteValue]
    private var rows: DqliteRows?
    private var current: [Value] = []
    private var texts: [[UInt8]] = []
    private var isStarted = false

    init(connection: RemoteConnection, sql: String, prepared: DqliteStatement) {
        self.connection = connection
        self.sql = sql
        self.prepared = prepared
        parameters = Array(repeating: .null, count: prepared.parameterCount)
        returnsRows = Self.returnsRows(sql)
    }

    deinit {
        try? rows?.close()
        try? connection.database.connection.finalize(prepared)
    }

    package var isReadOnly: Bool { returnsRows && !sql.uppercased().contains("RETURNING") }
    package var parameterCount: Int { prepared.parameterCount }
    /// dqlite does not report parameter names.
    package func parameterName(at index: Int) -> String? { nil }

    package func bind(_ value: (any ValueConvertible)?, at index: Int) throws {
        guard (1...max(parameters.count, 1)).contains(index), index <= parameters.count else {
            throw SQLiteError(code: SQLITE_RANGE, message: "column index out of range", sql: sql)
        }
        parameters[index - 1] = RemoteDatabase.wire(value?.sqliteValue ?? .null)
    }

    package func step() throws -> Bool {
        do {
            if !isStarted {
                isStarted = true
                if returnsRows {
                    rows = try connection.database.connection.query(prepared, parameters)
                } else {
                    let changes = try execute()
                    connection.didRun(sql, changes: changes)
                    return false
                }
            }
            guard let row = try rows?.next() else {
                connection.didRun(sql, changes: 0)
                rows = nil
                return false
            }
            current = row.map(RemoteDatabase.value)
            texts = current.map(Self.text)
            return true
        } catch let error as DqliteError {
            throw connection.translate(error, sql: sql, offset: 0)
        }
    }

    package func reset() throws {
        try? rows?.close()
        rows = nil
        isStarted = false
    }

    package var columnCount: Int { rows?.columns.count ?? 0 }
    package func columnName(at index: Int) -> String { rows?.columns[index] ?? "" }
    package func storageClass(at index: Int) -> StorageClass { current[index].storageClass }
    package func value(at index: Int) -> Value { current[index] }

    package func int64(at index: Int) -> Int64 {
        switch current[index] {
        case .integer(let integer): integer
        case .real(let real): Int64(exactly: real.rounded(.towardZero)) ?? 0
        default: 0
        }
    }

    package func double(at index: Int) -> Double {
        switch current[index] {
        case .real(let real): real
        case .integer(let integer): Double(integer)
        default: 0
        }
    }

    package func withTextBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        try texts[index].withUnsafeBufferPointer(body)
    }

    package func withBlobBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        try texts[index].withUnsafeBufferPointer(body)
    }

    /// Runs the statement as an EXEC; a `BEGIN` is retried while the write lock is taken.
    private func execute() throws -> Int {
        let database = connection.database
        guard TransactionControl.operation(of: sql) == "BEGIN" else {
            return Int(try database.connection.execute(prepared, parameters).rowsAffected)
        }
        try database.beginImmediate(sql)
        return 0
    }

    private static func text(_ value: Value) -> [UInt8] {
        switch value {
        case .null: []
        case .integer(let integer): Array(String(integer).utf8)
        case .real(let real): Array(ValueCells.sqliteText(of: real).utf8)
        case .text(let text): Array(text.utf8)
        case .blob(let bytes): bytes
        }
    }

    /// Whether the statement is one that returns rows (`SELECT`, `VALUES`, `EXPLAIN`, a `WITH` whose
    /// main statement is a `SELECT`, a `PRAGMA` that reads, or anything with `RETURNING`): those run as a
    /// QUERY, the rest as an EXEC that counts changes (a dqlite 1.11 server fails a QUERY of a statement
    /// without result columns, such as `PRAGMA x = y`, with "not an error").
    static func returnsRows(_ sql: String) -> Bool {
        let words = topLevelWords(sql.uppercased())
        guard let first = words.first else { return false }
        if words.contains("RETURNING") { return true }
        switch first {
        case "SELECT", "VALUES", "EXPLAIN": return true
        case "PRAGMA": return !sql.contains("=")
        case "WITH":
            return words.first { ["SELECT", "VALUES", "INSERT", "UPDATE", "DELETE", "REPLACE"].contains($0) } == "SELECT"
        default: return false
        }
    }

    /// The words of `sql` outside parentheses and quotes (a `WITH` clause's bodies are skipped).
    private static func topLevelWords(_ sql: String) -> [String] {
        var words: [String] = []
        var depth = 0
        var quote: Character?
        var word = ""
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            if character.isLetter || character == "_" {
                if depth == 0 { word.append(character) }
                continue
            }
            if !word.isEmpty { words.append(word) }
            word = ""
            switch character {
            case "'", "\"", "`": quote = character
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            default: break
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}

@available(*, unavailable)
extension RemoteStatement: Sendable {}
