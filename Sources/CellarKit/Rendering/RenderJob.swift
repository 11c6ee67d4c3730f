/// Something a ``ResultRenderer`` does with the writer of its mode, so that each job is written once
/// for every mode and specialised for each writer.
protocol RenderJob {
    /// Writes rows with `writer`.
    ///
    /// - Returns: the number of rows written.
    mutating func run<Writer: RowWriter>(_ writer: inout Writer, output: inout OutputBuffer) throws -> Int
}
