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
