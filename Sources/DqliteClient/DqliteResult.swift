/// What a statement that returns no rows reports.
public struct DqliteResult: Equatable, Sendable {
    /// The rowid of the last row inserted on this connection.
    public var lastInsertID: Int64
    /// The rows changed, inserted or deleted by the statement.
    public var rowsAffected: Int64

    /// A result with the given counts.
    public init(lastInsertID: Int64, rowsAffected: Int64) {
        self.lastInsertID = lastInsertID
        self.rowsAffected = rowsAffected
    }
}
