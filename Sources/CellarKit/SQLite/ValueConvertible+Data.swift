#if canImport(FoundationEssentials)
    public import FoundationEssentials

    extension Data: ValueConvertible {
        /// The bytes as a SQLite blob.
        public var sqliteValue: Value { .blob([UInt8](self)) }
    }
#endif
