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

/// How machine modes write text that is not changed by their format: exact bytes into a file or a
/// pipe, control characters escaped on a terminal.
struct MachineText {
    let escapesControlCharacters: Bool

    func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        if escapesControlCharacters {
            ControlCharacterEscaping.escape(bytes, into: &output)
        } else {
            output.append(contentsOf: bytes)
        }
    }

    func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { append($0, to: &output) }
    }
}
