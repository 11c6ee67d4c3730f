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

    /// A violation from its parts.
    public init(table: String, rowid: Int64?, parent: String, foreignKeyIndex: Int64) {
        self.table = table
        self.rowid = rowid
        self.parent = parent
        self.foreignKeyIndex = foreignKeyIndex
    }

    /// `wine rowid 3 has no parent row in wineries`.
    public var description: String {
        "\(table) rowid \(rowid.map(String.init) ?? "?") has no parent row in \(parent)"
    }
}
