import CellarKit

/// Writes a ``Diagnostic`` as compilers do: the located message, the source line and a caret under
/// the column, then its notes.
///
/// ```
/// migrations/0002_create_wine.sql:4:40: error: near "foreign": syntax error
///     4 |     rating integer producer_id integer foreign key references wineries(id)
///       |                                        ^
/// ```
struct DiagnosticFormatter {
    /// Whether to colour `error:`.
    let usesColor: Bool

    /// `error:` in bold red.
    static let coloredErrorLabel = "\u{1B}[1;31merror:\u{1B}[0m"

    /// The whole report, lines joined with newlines, every piece of outside text escaped.
    ///
    /// - Parameter label: what stands for `error:`, such as `warning[destructive]:` for a lint finding
    ///   (a label starting with `warning` is coloured magenta, others red).
    func format(_ diagnostic: Diagnostic, label plainLabel: String = "error:") -> String {
        let path = ControlCharacterEscaping.escape(diagnostic.path)
        let place = diagnostic.location.map { "\(path):\($0.line):\($0.column)" } ?? path
        let color = plainLabel.hasPrefix("warning") ? "1;35" : "1;31"
        let label = usesColor ? "\u{1B}[\(color)m\(plainLabel)\u{1B}[0m" : plainLabel
        var lines = ["\(place): \(label) \(ControlCharacterEscaping.escape(diagnostic.message))"]
        if let location = diagnostic.location, let line = diagnostic.sourceLine {
            let number = String(location.line)
            let gutter = String(repeating: " ", count: number.count)
            let (source, column) = Self.window(of: line, column: location.column)
            lines.append("    \(number) | \(displayed(source))")
            lines.append("    \(gutter) | \(caretPadding(source, column: column))^")
        }
        lines += diagnostic.notes.map { "cellar: \(ControlCharacterEscaping.escape($0))" }
        return lines.joined(separator: "\n")
    }

    /// How many characters of a long source line are shown on each side of the caret.
    static let context = 40

    /// The part of `line` shown: all of it when short, else `context` characters on each side of
    /// `column` with `…` where it was cut (one error on a 5 MB line prints a line, not 10 MB); and the
    /// caret's column within that part.
    static func window(of line: String, column: Int) -> (text: String, column: Int) {
        let scalars = line.unicodeScalars
        guard scalars.count > 2 * context + 20 else { return (line, column) }
        let caret = min(max(column - 1, 0), scalars.count)
        let startOffset = max(caret - context, 0)
        let endOffset = min(caret + context, scalars.count)
        let start = scalars.index(scalars.startIndex, offsetBy: startOffset)
        let end = scalars.index(start, offsetBy: endOffset - startOffset)
        let isCutAtStart = startOffset > 0
        let text = (isCutAtStart ? "…" : "") + String(scalars[start..<end]) + (endOffset < scalars.count ? "…" : "")
        return (text, caret - startOffset + 1 + (isCutAtStart ? 1 : 0))
    }

    /// The source line with tabs kept (so the caret lines up) and other controls escaped.
    private func displayed(_ source: String) -> String {
        source.split(separator: "\t", omittingEmptySubsequences: false)
            .map { ControlCharacterEscaping.escape(String($0)) }
            .joined(separator: "\t")
    }

    /// Blanks as wide as the characters before `column`, tabs kept as tabs.
    private func caretPadding(_ source: String, column: Int) -> String {
        var padding = ""
        for scalar in source.unicodeScalars.prefix(max(column - 1, 0)) {
            if scalar == "\t" {
                padding += "\t"
            } else {
                padding += String(repeating: " ", count: ControlCharacterEscaping.escape(String(scalar)).count)
            }
        }
        return padding
    }
}
