/// What ``Database/dump(to:options:)`` writes.
public struct DumpOptions: Sendable {
    /// Which parts of the database a dump holds.
    public enum Content: Sendable {
        /// `CREATE` statements and rows, inside `BEGIN TRANSACTION` … `COMMIT` (sqlite3's `.dump`).
        case schemaAndData
        /// `CREATE` statements only, inside `BEGIN TRANSACTION` … `COMMIT`.
        case schemaOnly
        /// `INSERT` statements only, with no transaction around them (sqlite3's `.dump --data-only`).
        case dataOnly
    }

    /// `LIKE` patterns (`\` escapes `%` and `_`) naming the tables to dump; empty dumps every table.
    ///
    /// A selected table brings its indexes and triggers and its `sqlite_sequence` row; a view is
    /// selected by its own name.
    public var tablePatterns: [String]
    /// Schema, data or both.
    public var content: Content
    /// Whether control characters in text are escaped (for a terminal; the text then no longer reads
    /// back as the same value).
    public var escapesControlCharacters: Bool
    /// Whether the schema comes inside `PRAGMA foreign_keys=OFF; BEGIN TRANSACTION;` … `COMMIT;` (false
    /// for a checkpoint, which the migrator runs inside its own transaction).
    package var wrapsInTransaction = true
    /// Whether each row's rowid is written too, `INSERT INTO t(rowid,a,b) VALUES(…)`, for the tables
    /// whose rowid is not a column (sqlite3's `--preserve-rowids`).
    public var preservesRowids = false
    /// Whether line breaks in text are written as they are rather than as `char(10)` and `char(13)`
    /// (sqlite3's `--newlines`).
    public var keepsNewlines = false
    /// Whether `sqlite_sequence` and the `sqlite_stat` tables are left out (sqlite3's `--nosys`).
    public var omitsSystemTables = false

    /// Creates options; by default the whole database, schema and data, bytes exactly as stored.
    public init(
        tablePatterns: [String] = [], content: Content = .schemaAndData, escapesControlCharacters: Bool = false,
        preservesRowids: Bool = false, keepsNewlines: Bool = false, omitsSystemTables: Bool = false
    ) {
        self.tablePatterns = tablePatterns
        self.content = content
        self.escapesControlCharacters = escapesControlCharacters
        self.preservesRowids = preservesRowids
        self.keepsNewlines = keepsNewlines
        self.omitsSystemTables = omitsSystemTables
    }

    /// Whether `CREATE` statements are written.
    var includesSchema: Bool { content != .dataOnly }
    /// Whether rows are written.
    var includesData: Bool { content != .schemaOnly }
}
