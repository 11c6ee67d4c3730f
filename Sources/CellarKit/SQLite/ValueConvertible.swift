/// A Swift value that can be bound to a statement parameter and read back from a row.
///
/// `Int`, `Int32`, `Int64`, `Double`, `String`, `Bool`, `[UInt8]`, ``Value`` and optionals of them conform.
///
/// ```swift
/// let row = try db.query("SELECT name, rating FROM wine").first!
/// let name: String = try row.decode("name")
/// let rating: Int? = try row.decode("rating")     // NULL reads as nil
/// ```
public protocol ValueConvertible {
    /// The SQLite value this Swift value is stored as.
    var sqliteValue: Value { get }

    /// The Swift value `value` holds, or nil when it holds another kind of value (no lossy
    /// conversion: text is not parsed as a number, a real with a fraction is not an integer).
    static func decode(from value: Value) -> Self?
}

extension Value: ValueConvertible {
    /// The value itself.
    public var sqliteValue: Value { self }
    /// The value itself.
    public static func decode(from value: Value) -> Value? { value }
}

extension Int: ValueConvertible {
    /// The integer as a 64-bit SQLite integer.
    public var sqliteValue: Value { .integer(Int64(self)) }
    /// An integer (or a real that is a whole number) that fits.
    public static func decode(from value: Value) -> Int? { Int64.decode(from: value).flatMap { Int(exactly: $0) } }
}

extension Int64: ValueConvertible {
    /// The integer as a SQLite integer.
    public var sqliteValue: Value { .integer(self) }
    /// An integer, or a real that is a whole number.
    public static func decode(from value: Value) -> Int64? {
        switch value {
        case .integer(let integer): integer
        case .real(let real): Int64(exactly: real)
        default: nil
        }
    }
}

extension Int32: ValueConvertible {
    /// The integer as a SQLite integer.
    public var sqliteValue: Value { .integer(Int64(self)) }
    /// An integer (or a real that is a whole number) that fits.
    public static func decode(from value: Value) -> Int32? { Int64.decode(from: value).flatMap { Int32(exactly: $0) } }
}

extension Double: ValueConvertible {
    /// The double as a SQLite real.
    public var sqliteValue: Value { .real(self) }
    /// A real, or an integer as a double.
    public static func decode(from value: Value) -> Double? {
        switch value {
        case .real(let real): real
        case .integer(let integer): Double(integer)
        default: nil
        }
    }
}

extension String: ValueConvertible {
    /// The string as SQLite UTF-8 text.
    public var sqliteValue: Value { .text(self) }
    /// Text.
    public static func decode(from value: Value) -> String? {
        if case .text(let text) = value { text } else { nil }
    }
}

extension Substring: ValueConvertible {
    /// The substring as SQLite UTF-8 text.
    public var sqliteValue: Value { .text(String(self)) }
    /// Text.
    public static func decode(from value: Value) -> Substring? { String.decode(from: value).map { Substring($0) } }
}

extension Bool: ValueConvertible {
    /// `true` as 1 and `false` as 0, as SQLite stores booleans.
    public var sqliteValue: Value { .integer(self ? 1 : 0) }
    /// An integer: 0 is false, anything else true (as SQLite tests booleans).
    public static func decode(from value: Value) -> Bool? { Int64.decode(from: value).map { $0 != 0 } }
}

extension Array: ValueConvertible where Element == UInt8 {
    /// The bytes as a SQLite blob.
    public var sqliteValue: Value { .blob(self) }
    /// A blob's bytes.
    public static func decode(from value: Value) -> [UInt8]? {
        if case .blob(let bytes) = value { bytes } else { nil }
    }
}

extension Optional: ValueConvertible where Wrapped: ValueConvertible {
    /// The wrapped value, or `NULL` for `nil`.
    public var sqliteValue: Value { self?.sqliteValue ?? .null }
    /// nil for `NULL`, else the wrapped type's decoding (which may fail).
    public static func decode(from value: Value) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.decode(from: value).map { .some($0) }
    }
}
