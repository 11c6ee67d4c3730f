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

    /// The value of the column at `index`, decoded as `T`.
    ///
    /// - Throws: ``RowDecodingError`` when the index is out of range or the value is not a `T` (NULL
    ///   decodes only as an optional).
    public func decode<T: ValueConvertible>(_ type: T.Type = T.self, at index: Int) throws(RowDecodingError) -> T {
        guard values.indices.contains(index) else {
            throw RowDecodingError(column: "#\(index)", value: nil, type: "\(T.self)", columns: columns)
        }
        guard let decoded = T.decode(from: values[index]) else {
            throw RowDecodingError(column: columns[index], value: values[index], type: "\(T.self)", columns: columns)
        }
        return decoded
    }

    /// The value of the first column named `name`, decoded as `T`.
    ///
    /// ```swift
    /// let rating = try row.decode(Int?.self, "rating")
    /// ```
    /// - Throws: ``RowDecodingError`` when there is no such column or the value is not a `T`.
    public func decode<T: ValueConvertible>(_ type: T.Type, _ name: String) throws(RowDecodingError) -> T {
        guard let index = columns.firstIndex(of: name) else {
            throw RowDecodingError(column: name, value: nil, type: "\(T.self)", columns: columns)
        }
        return try decode(type, at: index)
    }

    /// The value of the first column named `name`, decoded as the type the caller asks for.
    ///
    /// ```swift
    /// let name: String = try row.decode("name")
    /// ```
    /// - Throws: ``RowDecodingError`` when there is no such column or the value is not a `T`.
    public func decode<T: ValueConvertible>(_ name: String) throws(RowDecodingError) -> T {
        try decode(T.self, name)
    }
}
