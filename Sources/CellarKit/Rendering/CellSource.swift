/// One row's cells, read either from a live statement or from a row kept for later (the sizing rows
/// of grid modes, the head and tail of a long result).
protocol CellSource {
    /// The number of cells.
    var cellCount: Int { get }
    /// The storage class of cell `index`.
    func storageClass(at index: Int) -> StorageClass
    /// The cell as a double (meaningful for reals).
    func double(at index: Int) -> Double
    /// The cell as an integer (meaningful for integers).
    func int64(at index: Int) -> Int64
    /// Calls `body` with the bytes of cell `index`, whose storage class the caller has read as
    /// `storage`: SQLite's text for integers, reals and text; the raw bytes of a blob; nothing for
    /// `NULL`.
    func withBytes<Result>(at index: Int, of storage: StorageClass, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result)
        rethrows -> Result
}

extension CellSource {
    /// Calls `body` with the cell's bytes, as ``withBytes(at:of:_:)`` does for its storage class.
    func withBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withBytes(at: index, of: storageClass(at: index), body)
    }
}
