/// One value as dqlite carries it, in SQLite's five storage classes.
///
/// dqlite also has wire types for timestamps and booleans (columns declared `DATETIME`, `DATE`,
/// `TIMESTAMP` or `BOOLEAN`); they arrive here as the storage class SQLite keeps them in
/// (`.integer` or `.text`), so a value reads the same as it would from a local file.
public enum DqliteValue: Hashable, Sendable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double, every bit kept.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])

    /// The storage class of a value, as a row read in place reports it (``DqliteRows/storageClass(at:)``).
    public enum StorageClass: Hashable, Sendable {
        case null, integer, real, text, blob
    }
}
