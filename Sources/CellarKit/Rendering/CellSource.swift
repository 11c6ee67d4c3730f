/// One row's cells, read either from a live statement or from a row kept for later (the sizing rows
/// of grid modes, the head and tail of a long result).
protocol CellSource {
    /// The number of cells.
    var cellCount: Int { get }
    /// The storage class of cell `index`.
    func storageClass(at index: Int) -> StorageClass
    /// The cell as a double (meaningful for reals).
    func double(at index: Int) -> Double
    /// Calls `body` with the cell's bytes: SQLite's text for integers, reals and text; the raw bytes
    /// of a blob; nothing for `NULL`.
    func withBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result
}

/// A statement on its current row, read without copying.
struct StatementCells: CellSource {
    let statement: Statement

    var cellCount: Int { statement.columnCount }

    func storageClass(at index: Int) -> StorageClass { statement.storageClass(at: index) }

    func double(at index: Int) -> Double { statement.double(at: index) }

    func withBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if statement.storageClass(at: index) == .blob {
            return try statement.withBlobBytes(at: index, body)
        }
        return try statement.withTextBytes(at: index, body)
    }
}

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
