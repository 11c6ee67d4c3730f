/// Steps a statement and writes every row as it comes.
struct StreamJob<Statement: SQLStatement>: RenderJob {
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
