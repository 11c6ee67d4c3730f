/// One output mode's way of writing rows; ``ResultRenderer`` drives it.
///
/// `begin` is called before the first row only, so an empty result writes nothing (as in sqlite3);
/// `end` is called once after the last row when `begin` was.
protocol RowWriter {
    /// Prepares for rows with these column names (raw, unescaped).
    mutating func begin(columns: [String], into output: inout OutputBuffer) throws
    /// Writes one row.
    mutating func write(_ row: some CellSource, into output: inout OutputBuffer) throws
    /// Marks where rows were left out of a head-and-tail view.
    mutating func writeOmission(count: Int, into output: inout OutputBuffer) throws
    /// Finishes the result.
    mutating func end(into output: inout OutputBuffer) throws
}

extension RowWriter {
    func writeOmission(count: Int, into output: inout OutputBuffer) throws {}
}
