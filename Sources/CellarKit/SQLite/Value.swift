/// One SQLite value, in SQLite's own five storage classes.
///
/// Conversions are lossless both ways: an integer stays an `Int64`, a real keeps every bit of its
/// `Double`, and a blob keeps its exact bytes.
public enum Value: Hashable, Sendable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])

    /// The storage class of the value, as `typeof()` would name it.
    public var storageClass: StorageClass {
        switch self {
        case .null: .null
        case .integer: .integer
        case .real: .real
        case .text: .text
        case .blob: .blob
        }
    }
}

/// SQLite's storage classes (<https://sqlite.org/datatype3.html>).
public enum StorageClass: String, Sendable, CaseIterable {
    case null, integer, real, text, blob
}
