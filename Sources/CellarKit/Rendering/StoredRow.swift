/// A copy of one row, kept after the statement has moved on.
struct StoredRow: CellSource {
    private var classes: [StorageClass] = []
    /// Each real's and integer's value (the bits of a double for a real), 0 for other cells.
    private var numbers: [UInt64] = []
    private var ends: [Int] = []
    private var bytes: [UInt8] = []

    /// Copies the current row of `source`.
    init(copying source: some CellSource) {
        for index in 0..<source.cellCount {
            let storage = source.storageClass(at: index)
            classes.append(storage)
            switch storage {
            case .real: numbers.append(source.double(at: index).bitPattern)
            case .integer: numbers.append(UInt64(bitPattern: source.int64(at: index)))
            default: numbers.append(0)
            }
            source.withBytes(at: index, of: storage) { bytes.append(contentsOf: $0) }
            ends.append(bytes.count)
        }
    }

    var cellCount: Int { classes.count }

    func storageClass(at index: Int) -> StorageClass { classes[index] }

    func double(at index: Int) -> Double { Double(bitPattern: numbers[index]) }

    func int64(at index: Int) -> Int64 { Int64(bitPattern: numbers[index]) }

    func withBytes<Result>(at index: Int, of storage: StorageClass, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result)
        rethrows -> Result
    {
        let start = index == 0 ? 0 : ends[index - 1]
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<ends[index]])) }
    }
}
