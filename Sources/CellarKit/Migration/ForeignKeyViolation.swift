/// One row of `PRAGMA foreign_key_check` (<https://sqlite.org/pragma.html#pragma_foreign_key_check>).
public struct ForeignKeyViolation: Sendable, Hashable, CustomStringConvertible {
    /// The table holding the row whose reference has no parent.
    public let table: String
    /// The row's rowid (nil for a `WITHOUT ROWID` table).
    public let rowid: Int64?
    /// The table the row should refer to.
    public let parent: String
    /// The index of the foreign key within the table's list.
    public let foreignKeyIndex: Int64
    /// For a `WITHOUT ROWID` table, which SQLite reports without a rowid, the row's primary key as
    /// SQL text: `(region, name) = ('fr', 'Margaux')`.
    public let childKey: String?

    /// A violation from its parts.
    public init(table: String, rowid: Int64?, parent: String, foreignKeyIndex: Int64, childKey: String? = nil) {
        self.table = table
        self.rowid = rowid
        self.parent = parent
        self.foreignKeyIndex = foreignKeyIndex
        self.childKey = childKey
    }

    /// `wine rowid 3 has no parent row in wineries`, or `wines (region, name) = ('fr', 'Margaux') has no
    /// parent row in regions` for a `WITHOUT ROWID` table.
    public var description: String {
        let row = childKey ?? rowid.map { "rowid \($0)" } ?? "(a row without rowid)"
        return "\(table) \(row) has no parent row in \(parent)"
    }
}
