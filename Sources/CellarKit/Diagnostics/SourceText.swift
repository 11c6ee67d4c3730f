/// A whole text held in memory, as a diagnostic points into it: offsets count from `baseOffset`
/// within it (a migration's section inside its file) and lines from `firstLine` (a statement the
/// shell read starting at a later line of its input).
package struct SourceText: LocatableText {
    /// The text.
    package let text: String
    /// Where offset 0 is within ``text``.
    package let baseOffset: Int
    /// The number of the text's first line.
    package let firstLine: Int

    /// A text whose offsets start at `baseOffset` and whose first line is `firstLine`.
    package init(_ text: String, baseOffset: Int = 0, firstLine: Int = 1) {
        self.text = text
        self.baseOffset = baseOffset
        self.firstLine = firstLine
    }

    package func location(of offset: Int) -> SourceLocation {
        let local = SourceLocation(byteOffset: baseOffset + offset, in: text.utf8)
        return SourceLocation(line: local.line + firstLine - 1, column: local.column)
    }

    package func lineText(at offset: Int) -> String? {
        SourceLocation.lineText(SourceLocation(byteOffset: baseOffset + offset, in: text.utf8).line, in: text)
    }
}
