import Testing

@testable import CellarCLI

@Suite struct InputLineGeometryTests {
    private func geometry(_ prompt: String, _ line: String, point: Int? = nil, columns: Int) -> InputLineGeometry? {
        let bytes = Array(line.utf8)
        return InputLineGeometry(prompt: prompt, line: bytes, point: point ?? bytes.count, columns: columns)
    }

    @Test(
        arguments: [
            // prompt, line, point, columns, rows above the cursor, text column
            ("cellar> ", "SELECT 1", nil, 80, 0, 8),
            ("cellar> ", String(repeating: "x", count: 71), nil, 80, 0, 8),
            // Filling the row exactly puts the cursor at the start of the next one.
            ("cellar> ", String(repeating: "x", count: 72), nil, 80, 1, 8),
            ("cellar> ", String(repeating: "x", count: 100), 10, 80, 0, 8),
            ("cellar> ", String(repeating: "x", count: 200), nil, 80, 2, 8),
            // A double-width character that does not fit at the end of a row starts the next one.
            ("> ", "xxxxxxx日", nil, 10, 1, 2),
            ("> ", "xxxxxx日", nil, 10, 1, 2),
            ("> ", "xxxxx日", nil, 10, 0, 2),
            ("0123456789", "a", nil, 10, 0, 0),
        ] as [(String, String, Int?, Int, Int, Int)])
    func layout(prompt: String, line: String, point: Int?, columns: Int, rows: Int, textColumn: Int) {
        #expect(
            geometry(prompt, line, point: point, columns: columns)
                == InputLineGeometry(rowsAboveCursor: rows, textColumn: textColumn))
    }

    @Test(arguments: ["a\tb", "a\u{1B}[31mb", "a\u{7F}"])
    func controlCharactersAreLeftToReadline(line: String) {
        #expect(geometry("> ", line, columns: 80) == nil)
    }

    @Test func bytesThatAreNotUTF8AreLeftToReadline() {
        #expect(InputLineGeometry(prompt: "> ", line: [0x61, 0xFF], point: 2, columns: 80) == nil)
        // A point inside a character is not one readline would leave.
        #expect(InputLineGeometry(prompt: "> ", line: Array("é".utf8), point: 1, columns: 80) == nil)
    }
}
