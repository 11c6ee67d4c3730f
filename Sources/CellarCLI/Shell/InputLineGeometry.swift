import CellarKit

/// Where the characters of the input line sit on the screen, as readline lays them out: the prompt,
/// then the text, wrapping at the screen's width (a double-width character that does not fit at the
/// end of a row starts the next one). Highlighting uses it to go back to the start of the text and
/// draw it again in colour, character for character where readline drew it.
struct InputLineGeometry: Equatable {
    /// Rows from the text's first character up to the cursor.
    let rowsAboveCursor: Int
    /// The column the text starts at, on its first row.
    let textColumn: Int

    /// A layout from its parts.
    init(rowsAboveCursor: Int, textColumn: Int) {
        self.rowsAboveCursor = rowsAboveCursor
        self.textColumn = textColumn
    }

    /// The layout of `prompt` + `line` with the cursor before byte `point` of `line`, on a screen
    /// `columns` wide; nil when it cannot be known exactly (control characters, which readline shows
    /// as `^X` or expands, or text that is not UTF-8), so the line is left as readline drew it.
    init?(prompt: String, line: [UInt8], point: Int, columns: Int) {
        guard columns > 0, point >= 0, point <= line.count,
            let before = String(validating: line[..<point], as: UTF8.self),
            String(validating: line[point...], as: UTF8.self) != nil
        else { return nil }
        var position = Position(columns: columns)
        for scalar in prompt.unicodeScalars {
            guard position.advance(by: scalar) else { return nil }
        }
        position.settle()
        let start = position
        for scalar in before.unicodeScalars {
            guard position.advance(by: scalar) else { return nil }
        }
        position.settle()
        guard line[point...].allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { return nil }
        rowsAboveCursor = position.row - start.row
        textColumn = start.column
    }

    /// A position on the screen while characters are laid out.
    private struct Position {
        let columns: Int
        var row = 0
        var column = 0

        init(columns: Int) {
            self.columns = columns
        }

        /// Places one character; false for a control character.
        mutating func advance(by scalar: Unicode.Scalar) -> Bool {
            guard scalar.value >= 0x20, scalar.value != 0x7F else { return false }
            let width = DisplayWidth.of(scalar)
            if column + width > columns {
                row += 1
                column = 0
            }
            column += width
            return true
        }

        /// A row filled to its last column puts the next character, and the cursor, on the next row.
        mutating func settle() {
            if column >= columns {
                row += 1
                column = 0
            }
        }
    }
}
