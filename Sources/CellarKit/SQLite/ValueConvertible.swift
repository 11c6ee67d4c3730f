/// A Swift value that can be bound to a statement parameter.
///
/// `Int`, `Int32`, `Int64`, `Double`, `String`, `Bool`, `[UInt8]`, ``Value`` and optionals of them conform.
public protocol ValueConvertible {
    /// The SQLite value this Swift value is stored as.
    var sqliteValue: Value { get }
}

extension Value: ValueConvertible {
    /// The value itself.
    public var sqliteValue: Value { self }
}

extension Int: ValueConvertible {
    /// The integer as a 64-bit SQLite integer.
    public var sqliteValue: Value { .integer(Int64(self)) }
}

extension Int64: ValueConvertible {
    /// The integer as a SQLite integer.
    public var sqliteValue: Value { .integer(self) }
}

extension Int32: ValueConvertible {
    /// The integer as a SQLite integer.
    public var sqliteValue: Value { .integer(Int64(self)) }
}

extension Double: ValueConvertible {
    /// The double as a SQLite real.
    public var sqliteValue: Value { .real(self) }
}

extension String: ValueConvertible {
    /// The string as SQLite UTF-8 text.
    public var sqliteValue: Value { .text(self) }
}

extension Substring: ValueConvertible {
    /// The substring as SQLite UTF-8 text.
    public var sqliteValue: Value { .text(String(self)) }
}

extension Bool: ValueConvertible {
    /// `true` as 1 and `false` as 0, as SQLite stores booleans.
    public var sqliteValue: Value { .integer(self ? 1 : 0) }
}

extension Array: ValueConvertible where Element == UInt8 {
    /// The bytes as a SQLite blob.
    public var sqliteValue: Value { .blob(self) }
}

extension Optional: ValueConvertible where Wrapped: ValueConvertible {
    /// The wrapped value, or `NULL` for `nil`.
    public var sqliteValue: Value { self?.sqliteValue ?? .null }
}
