/// A statement on its current row, read without copying.
struct StatementCells<Statement: SQLStatement>: CellSource {
    let statement: Statement

    var cellCount: Int { statement.columnCount }

    func storageClass(at index: Int) -> StorageClass { statement.storageClass(at: index) }

    func double(at index: Int) -> Double { statement.double(at: index) }

    func int64(at index: Int) -> Int64 { statement.int64(at: index) }

    func withBytes<Result>(at index: Int, of storage: StorageClass, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result)
        rethrows -> Result
    {
        if storage == .blob { return try statement.withBlobBytes(at: index, body) }
        return try statement.withTextBytes(at: index, body)
    }
}
