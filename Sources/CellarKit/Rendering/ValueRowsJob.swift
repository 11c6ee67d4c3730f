/// Writes rows handed over as ``Value`` arrays, as they come.
struct ValueRowsJob: RenderJob {
    let columns: [String]
    let nextRow: () throws -> [Value]?

    mutating func run<Writer: RowWriter>(_ writer: inout Writer, output: inout OutputBuffer) throws -> Int {
        var count = 0
        do {
            while let row = try nextRow() {
                if count == 0 { try writer.begin(columns: columns, into: &output) }
                try writer.write(ValueCells(row), into: &output)
                count += 1
                try output.flushIfFull()
            }
        } catch {
            if count > 0 { try writer.end(into: &output) }
            throw error
        }
        if count > 0 { try writer.end(into: &output) }
        return count
    }
}
