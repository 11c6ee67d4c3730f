/// Writes the rows of statements to a ``ByteSink`` in one ``OutputMode``, streaming: rows go out as
/// they are stepped, through one large buffer.
///
/// ```swift
/// let renderer = ResultRenderer(sink: sink, options: RenderOptions(mode: .list))
/// try renderer.render(try db.prepare("SELECT * FROM wine"))
/// try renderer.flush()
/// ```
public final class ResultRenderer {
    private let sink: any ByteSink
    /// The options in force; may change between statements (the shell's `.mode`).
    public var options: RenderOptions
    private var buffer: [UInt8] = []
    private let flushThreshold = 1 << 16

    /// Creates a renderer writing to `sink`.
    public init(sink: any ByteSink, options: RenderOptions) {
        self.sink = sink
        self.options = options
        buffer.reserveCapacity(flushThreshold + 4096)
    }

    /// Steps `statement` to the end, writing each row.
    ///
    /// - Returns: the number of rows written.
    /// - Throws: ``SQLiteError`` from stepping, or what the sink throws.
    @discardableResult
    public func render(_ statement: Statement) throws -> Int {
        var rows = 0
        var isFirst = true
        while try statement.step() {
            if isFirst, options.resolvedShowsHeaders {
                writeListRow((0..<statement.columnCount).map { Array(statement.columnName(at: $0).utf8) })
            }
            isFirst = false
            writeListRow(statement)
            rows += 1
            if buffer.count >= flushThreshold { try flush() }
        }
        return rows
    }

    /// Hands everything buffered to the sink.
    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try sink.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeListRow(_ cells: [[UInt8]]) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: "|")) }
            cell.withUnsafeBufferPointer { appendText($0) }
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    private func writeListRow(_ statement: Statement) {
        for index in 0..<statement.columnCount {
            if index > 0 { buffer.append(UInt8(ascii: "|")) }
            switch statement.storageClass(at: index) {
            case .null: Array(options.nullValue.utf8).withUnsafeBufferPointer { appendText($0) }
            case .blob: statement.withBlobBytes(at: index) { HexEncoding.append($0, to: &buffer) }
            case .integer, .real, .text: statement.withTextBytes(at: index) { appendText($0) }
            }
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    private func appendText(_ bytes: UnsafeBufferPointer<UInt8>) {
        if options.escapesControlCharacters {
            ControlCharacterEscaping.escape(bytes, into: &buffer)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }
}

@available(*, unavailable)
extension ResultRenderer: Sendable {}
