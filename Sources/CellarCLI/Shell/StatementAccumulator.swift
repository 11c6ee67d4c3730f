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
        /// A statement holding a line that is not UTF-8 ended (or a dot-command line that is not UTF-8
        /// was read): nothing of it runs.
        case skipped
    }

    /// The lines of the statement typed so far, joined with newlines.
    private(set) var text = ""
    /// The input line the pending statement started on.
    private(set) var firstLine = 0

    /// Whether the pending statement holds a line that is not UTF-8, so that it must not run.
    private(set) var isSkipping = false
    /// `sqlite3_complete` over ``text``, fed a line at a time so that a long statement is read once.
    private var completeness = StatementBoundaryScanner()

    /// Whether no statement is half typed.
    var isEmpty: Bool { text.isEmpty }

    /// Adds `line` (without its line break), which is line `lineNumber` of the input.
    mutating func add(_ line: String, lineNumber: Int) -> Outcome {
        if text.isEmpty {
            if Self.isDotCommand(line) { return .dotCommand(line) }
            // Blanks or a finished comment alone start nothing: no continuation prompt (as in sqlite3).
            if Self.holdsOnlyBlanksAndComments(line) { return .pending }
            text = line
            firstLine = lineNumber
        } else {
            text += "\n"
            text += line
            completeness.scan("\n")
        }
        completeness.scan(line)
        guard completeness.isComplete else { return .pending }
        return takeAll()
    }

    /// Adds a line whose bytes are not UTF-8 (`line` is its text with the bad bytes replaced).
    ///
    /// The statement the line belongs to cannot run as written, and the lines after it up to where
    /// `sqlite3_complete` says it ends are still inside it (the rest of a string literal, say): they
    /// are gathered and thrown away with it, never read as statements or dot-commands of their own.
    /// A dot-command line is one line, so only that line is skipped.
    mutating func addUnreadable(_ line: String, lineNumber: Int) -> Outcome {
        if text.isEmpty, Self.isDotCommand(line) { return .skipped }
        isSkipping = true
        return add(line, lineNumber: lineNumber)
    }

    /// What is left at the end of input (run as is, so SQLite can say what is incomplete about it).
    mutating func finish() -> Outcome {
        text.isEmpty ? .pending : takeAll()
    }

    /// Throws away the half-typed statement (Ctrl-C at the prompt).
    mutating func discard() {
        text = ""
        isSkipping = false
        completeness.reset()
    }

    /// Whether `line` is blanks (spaces, tabs, a CR) and complete comments (`-- …`, `/* … */`) only.
    static func holdsOnlyBlanksAndComments(_ line: String) -> Bool {
        let bytes = Array(line.utf8)
        return SQLLexer(bytes).allSatisfy { token in
            switch token.kind {
            case .whitespace: bytes[token.range].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            case .lineComment: true
            case .blockComment: !token.isOpen
            default: false
            }
        }
    }

    private static func isDotCommand(_ line: String) -> Bool {
        line.drop { $0 == " " || $0 == "\t" }.first == "."
    }

    private mutating func takeAll() -> Outcome {
        defer { discard() }
        return isSkipping ? .skipped : .sql(text, firstLine: firstLine)
    }
}
