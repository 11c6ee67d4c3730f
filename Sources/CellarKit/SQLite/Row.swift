/// One result row: the column names of its statement and its values.
public struct Row: Hashable, Sendable {
    /// Column names, in result order.
    public let columns: [String]
    /// Values, in result order.
    public let values: [Value]

    /// Creates a row from names and values of equal count.
    public init(columns: [String], values: [Value]) {
        self.columns = columns
        self.values = values
    }

    /// The value of the column at `index`.
    public subscript(index: Int) -> Value { values[index] }

    /// The value of the first column named `name`, or nil when there is no such column.
    public subscript(name: String) -> Value? {
        columns.firstIndex(of: name).map { values[$0] }
    }
}
