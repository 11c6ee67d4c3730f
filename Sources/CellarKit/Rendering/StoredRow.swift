/// A copy of one row, kept after the statement has moved on.
struct StoredRow: CellSource {
    private var classes: [StorageClass] = []
    private var doubles: [Double] = []
    private var ends: [Int] = []
    private var bytes: [UInt8] = []

    /// Copies the current row of `source`.
    init(copying source: some CellSource) {
        for index in 0..<source.cellCount {
            let storage = source.storageClass(at: index)
            classes.append(storage)
            doubles.append(storage == .real ? source.double(at: index) : 0)
            source.withBytes(at: index) { bytes.append(contentsOf: $0) }
            ends.append(bytes.count)
        }
    }

    var cellCount: Int { classes.count }

    func storageClass(at index: Int) -> StorageClass { classes[index] }

    func double(at index: Int) -> Double { doubles[index] }

    func withBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let start = index == 0 ? 0 : ends[index - 1]
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<ends[index]])) }
    }
}
