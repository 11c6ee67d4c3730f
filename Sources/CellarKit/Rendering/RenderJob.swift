/// Something a ``ResultRenderer`` does with the writer of its mode, so that each job is written once
/// for every mode and specialised for each writer.
protocol RenderJob {
    /// Writes rows with `writer`.
    ///
    /// - Returns: the number of rows written.
    mutating func run<Writer: RowWriter>(_ writer: inout Writer, output: inout OutputBuffer) throws -> Int
}

/// Steps a statement and writes every row as it comes.
struct StreamJob: RenderJob {
    let statement: Statement

    mutating func run<Writer: RowWriter>(_ writer: inout Writer, output: inout OutputBuffer) throws -> Int {
        var count = 0
        let cells = StatementCells(statement: statement)
        do {
            while try statement.step() {
                if count == 0 { try writer.begin(columns: statement.columnNames, into: &output) }
                try writer.write(cells, into: &output)
                count += 1
                try output.flushIfFull()
            }
        } catch {
            // Rows already read are shown, in a finished grid, before the error is reported.
            if count > 0 { try writer.end(into: &output) }
            throw error
        }
        if count > 0 { try writer.end(into: &output) }
        return count
    }
}

/// Writes the rows a ``HeadTailCollector`` kept, with the omission marker between head and tail.
struct ReplayJob: RenderJob {
    let columns: [String]
    let collector: HeadTailCollector

    mutating func run<Writer: RowWriter>(_ writer: inout Writer, output: inout OutputBuffer) throws -> Int {
        guard collector.rowCount > 0 else { return 0 }
        try writer.begin(columns: columns, into: &output)
        for row in collector.head {
            try writer.write(row, into: &output)
        }
        if collector.omittedCount > 0 { try writer.writeOmission(count: collector.omittedCount, into: &output) }
        for row in collector.tail {
            try writer.write(row, into: &output)
        }
        try writer.end(into: &output)
        try output.flushIfFull()
        return collector.head.count + collector.tail.count
    }
}
