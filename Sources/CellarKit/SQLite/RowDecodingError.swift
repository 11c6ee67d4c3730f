/// A row value that could not be read as the type asked for, or a column the row does not have.
public struct RowDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The column asked for (its name, or `#index`).
    public let column: String
    /// The value found, or nil when the row has no such column.
    public let value: Value?
    /// The Swift type asked for.
    public let type: String
    /// The row's columns.
    public let columns: [String]

    /// What went wrong, in one line.
    public var description: String {
        guard let value else {
            return "no column \(column) in the row (columns: \(columns.joined(separator: ", ")))"
        }
        return "column \(column) holds \(value.storageClass.rawValue), which does not decode as \(type)"
    }
}
