import CellarKit

/// Collects input lines until they hold a complete SQL statement, as `sqlite3_complete` decides, or
/// recognises a dot-command typed on a line of its own.
struct StatementAccumulator {
    /// What one more line of input amounts to.
    enum Outcome: Equatable {
        /// A dot-command line, to run now.
        case dotCommand(String)
        /// Complete SQL (one or more statements) and the input line it started on.
        case sql(String, firstLine: Int)
        /// Not complete yet: more lines are needed.
        case pending
    }

    /// The lines of the statement typed so far, joined with newlines.
    private(set) var text = ""
    /// The input line the pending statement started on.
    private(set) var firstLine = 0

    /// Whether no statement is half typed.
    var isEmpty: Bool { text.isEmpty }

    /// Adds `line` (without its line break), which is line `lineNumber` of the input.
    mutating func add(_ line: String, lineNumber: Int) -> Outcome {
        if text.isEmpty {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.first == "." { return .dotCommand(line) }
            if trimmed.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return .pending }
            text = line
            firstLine = lineNumber
        } else {
            text += "\n" + line
        }
        guard Database.isComplete(text) else { return .pending }
        return takeAll()
    }

    /// What is left at the end of input (run as is, so SQLite can say what is incomplete about it).
    mutating func finish() -> Outcome {
        text.isEmpty ? .pending : takeAll()
    }

    /// Throws away the half-typed statement (Ctrl-C at the prompt).
    mutating func discard() {
        text = ""
    }

    private mutating func takeAll() -> Outcome {
        defer { text = "" }
        return .sql(text, firstLine: firstLine)
    }
}
