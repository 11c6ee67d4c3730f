/// A prepared statement as the runners and renderers use it, whatever engine prepared it: bind values,
/// step through rows, read columns.
///
/// ``Statement`` is SQLite's; a remote engine's statement holds the rows the server sent.
package protocol SQLStatement: AnyObject {
    /// The statement's text as prepared.
    var sql: String { get }
    /// Whether it makes no direct change to the database.
    var isReadOnly: Bool { get }
    /// The number of the highest parameter.
    var parameterCount: Int { get }
    /// The name of the 1-based parameter `index`, prefix included, or nil for `?`.
    func parameterName(at index: Int) -> String?
    /// Binds a value to the 1-based parameter `index`.
    func bind(_ value: (any ValueConvertible)?, at index: Int) throws
    /// Advances to the next row: true when a row is available, false at the end.
    func step() throws -> Bool
    /// Makes the statement ready to run again; bindings are kept.
    func reset() throws
    /// The number of result columns.
    var columnCount: Int { get }
    /// The name of the result column at `index`.
    func columnName(at index: Int) -> String
    /// The storage class of the current row's value at `index`.
    func storageClass(at index: Int) -> StorageClass
    /// The current row's value at `index`.
    func value(at index: Int) -> Value
    /// The current row's value at `index` as an integer.
    func int64(at index: Int) -> Int64
    /// The current row's value at `index` as a double.
    func double(at index: Int) -> Double
    /// Calls `body` with the UTF-8 bytes of the current row's value at `index`, valid only inside `body`.
    func withTextBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result
    /// Calls `body` with the bytes of the current row's value at `index` as a blob, valid only inside `body`.
    func withBlobBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result
    /// 1 for `EXPLAIN`, 2 for `EXPLAIN QUERY PLAN`, 0 for any other statement (`sqlite3_stmt_isexplain`).
    var explainKind: Int { get }
    /// Stops reading rows before the last (a pager left early): an engine whose rows stream from a
    /// server stops them without reading them; a local statement has nothing to do.
    func abandonRows()
    /// What the statement did as SQLite counts it (`sqlite3_stmt_status`), or nil where the engine
    /// keeps no such counters (a dqlite statement runs in the leader's SQLite).
    var statusCounters: StatementCounters? { get }
}

extension SQLStatement {
    package func abandonRows() {}
    package var statusCounters: StatementCounters? { nil }

    /// An engine whose statements SQLite cannot be asked about (a dqlite statement's columns are
    /// known only once it runs on the leader): read from the statement's first words by the lexer.
    package var explainKind: Int {
        let bytes = Array(sql.utf8)
        let words = SQLLexer(bytes).firstSignificantTokens(3)
        guard let first = words.first, first.isWord("explain", in: bytes) else { return 0 }
        return words.count == 3 && words[1].isWord("query", in: bytes) && words[2].isWord("plan", in: bytes) ? 2 : 1
    }

    /// The names of all result columns.
    package var columnNames: [String] { (0..<columnCount).map(columnName(at:)) }

    /// All values of the current row.
    package var values: [Value] { (0..<columnCount).map(value(at:)) }
}
