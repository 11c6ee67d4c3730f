import CellarKit

/// The payload of a ``Value`` of one storage class, or nil for any other.
enum FixtureValue {
    static func integer(_ value: Value) -> Int64? {
        if case .integer(let integer) = value { return integer }
        return nil
    }

    static func real(_ value: Value) -> Double? {
        if case .real(let real) = value { return real }
        return nil
    }

    static func text(_ value: Value) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }

    static func blob(_ value: Value) -> [UInt8]? {
        if case .blob(let bytes) = value { return bytes }
        return nil
    }
}
