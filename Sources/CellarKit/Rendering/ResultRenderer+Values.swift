extension ResultRenderer {
    /// Writes rows that arrive as ``Value`` arrays (from a remote database), exactly as
    /// ``render(_:)`` writes a statement's rows.
    ///
    /// - Parameters:
    ///   - columns: the column names.
    ///   - nextRow: the next row, nil after the last.
    /// - Returns: the number of rows written.
    @discardableResult
    package func render(columns: [String], rows nextRow: @escaping () throws -> [Value]?) throws -> Int {
        var job = ValueRowsJob(columns: columns, nextRow: nextRow)
        return try perform(&job, options: options)
    }
}
