internal import CSQLite

extension Statement {
    /// The number of columns in each result row.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of the column at `index` (an `AS` alias when there is one).
    public func columnName(at index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The names of all result columns.
    public var columnNames: [String] { (0..<columnCount).map(columnName(at:)) }

    /// The declared type of the column at `index` (`INTEGER`, `TEXT`, …), or nil for an expression.
    public func declaredType(at index: Int) -> String? {
        sqlite3_column_decltype(handle, Int32(index)).map { String(cString: $0) }
    }

    /// The storage class of the current row's value at `index`.
    public func storageClass(at index: Int) -> StorageClass {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    /// The current row's value at `index`, in its own storage class.
    public func value(at index: Int) -> Value {
        switch storageClass(at: index) {
        case .null: .null
        case .integer: .integer(int64(at: index))
        case .real: .real(double(at: index))
        case .text: .text(text(at: index))
        case .blob: .blob(blob(at: index))
        }
    }

    /// All values of the current row.
    public var values: [Value] { (0..<columnCount).map(value(at:)) }

    /// The current row's value at `index` as an integer, converted as SQLite converts.
    public func int64(at index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(index)) }

    /// The current row's value at `index` as a double, converted as SQLite converts.
    public func double(at index: Int) -> Double { sqlite3_column_double(handle, Int32(index)) }

    /// The current row's value at `index` as text; invalid UTF-8 is repaired with U+FFFD.
    public func text(at index: Int) -> String {
        withTextBytes(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// The current row's value at `index` as bytes.
    public func blob(at index: Int) -> [UInt8] {
        withBlobBytes(at: index) { [UInt8]($0) }
    }

    /// Calls `body` with the UTF-8 bytes of the current row's value at `index`, without copying.
    ///
    /// The buffer is valid only inside `body`. Renderers use this to write text straight to output.
    public func withTextBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let pointer = sqlite3_column_text(handle, Int32(index))
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return try body(UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    /// Calls `body` with the bytes of the current row's value at `index` as a blob, without copying.
    ///
    /// The buffer is valid only inside `body`.
    public func withBlobBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let pointer = sqlite3_column_blob(handle, Int32(index))?.assumingMemoryBound(to: UInt8.self)
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return try body(UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }
}
