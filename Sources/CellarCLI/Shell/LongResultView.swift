import CellarKit

/// The shell's view of a long result: the first half and the last half of `maxRows` rows, with a line
/// saying how many were left out in between. Memory holds at most `maxRows` rows, however many the
/// statement returns.
///
/// The rows kept are handed to ``ResultRenderer`` through a scratch in-memory connection
/// (`SELECT column1 AS "name", … FROM (VALUES (?, …), …)`, every value bound), so they are shown in the
/// current mode exactly as if the original statement had returned them.
final class LongResultView {
    private lazy var scratch: Database? = try? Database(path: ":memory:")

    /// Steps `statement` to the end and writes what the view shows of it.
    ///
    /// - Throws: ``SQLiteError`` from stepping (an interrupt included), or what the sink throws.
    func render(_ statement: Statement, maxRows: Int, options: RenderOptions, to sink: any ByteSink) throws {
        let headCount = (maxRows + 1) / 2
        let tailCount = maxRows / 2
        var head: [[Value]] = []
        var tail = RingBuffer<[Value]>(capacity: tailCount)
        var total = 0
        while try statement.step() {
            total += 1
            if head.count < headCount {
                head.append(statement.values)
            } else {
                tail.append(statement.values)
            }
        }
        let columns = statement.columnNames
        let renderer = ResultRenderer(sink: sink, options: options)
        guard total > maxRows else {
            try render(head + tail.elements, columns: columns, with: renderer)
            return try renderer.flush()
        }
        try render(head, columns: columns, with: renderer)
        try renderer.flush()
        let omitted = total - head.count - tail.elements.count
        try sink.write("… \(omitted) more rows not shown (\(total) in all; .maxrows all shows every row) …\n")
        var tailOptions = options
        tailOptions.showsHeaders = options.mode.showsHeadersByDefault ? options.showsHeaders : false
        let tailRenderer = ResultRenderer(sink: sink, options: tailOptions)
        try render(tail.elements, columns: columns, with: tailRenderer)
        try tailRenderer.flush()
    }

    private func render(_ rows: [[Value]], columns: [String], with renderer: ResultRenderer) throws {
        guard !rows.isEmpty else { return }
        guard let scratch else { throw SQLiteError(code: 7, message: "out of memory for the result view") }
        let placeholders = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let names = columns.enumerated().map { "column\($0.offset + 1) AS \(Self.quoted($0.element))" }
        let sql =
            "SELECT \(names.joined(separator: ", ")) FROM (VALUES "
            + Array(repeating: placeholders, count: rows.count).joined(separator: ", ") + ")"
        let statement = try scratch.prepare(sql)
        try statement.bind(rows.flatMap { $0 })
        try renderer.render(statement)
    }

    /// An identifier in double quotes, inner quotes doubled.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingAll("\"", with: "\"\"") + "\""
    }
}
