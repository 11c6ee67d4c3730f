import CellarKit
import Glibc

/// The shell at a terminal: prompts, readline editing, history, completion and Ctrl-C.
final class InteractiveShell {
    /// The prompt for a new statement.
    static let prompt = "cellar> "
    /// The prompt for a new statement while a transaction is open.
    static let transactionPrompt = "cellar*> "
    /// The prompt for a statement's further lines.
    static let continuationPrompt = "   ...> "

    private let session: ShellSession
    private var accumulator = StatementAccumulator()
    /// The banner's second line: which database it opened (a mistyped name opens a new, empty one).
    private let openedLine: String?

    /// Creates the interactive front of `session`; `openedLine` follows the banner.
    init(session: ShellSession, openedLine: String? = nil) {
        self.session = session
        self.openedLine = openedLine
    }

    /// Reads and runs input until `.quit` or Ctrl-D.
    ///
    /// - Throws: ``SystemError`` when the Ctrl-C watcher cannot start.
    func run() throws {
        let watcher = SignalWatcher.shared
        let interrupts = try watcher.startShell()
        session.interruptWatcher = watcher
        let history = openHistory()
        let completer = TabCompleter()
        let highlighter: LineEditor.Highlighter = { [unowned self] line in
            // A dot-command is not SQL: it stays plain.
            accumulator.isEmpty && line.drop { $0 == " " || $0 == "\t" }.first == "."
                ? line : SQLHighlighter.highlight(line, after: accumulator.text)
        }
        let editor = LineEditor(
            completer: { [unowned self] line, cursor in
                completer.candidates(in: session.connection, line: line, cursor: cursor, pending: accumulator.text)
            }, highlighter: highlightsInput ? highlighter : nil)
        for entry in history?.loadedEntries ?? [] { editor.addHistory(entry) }
        // What `.edit` runs goes into the history, as if typed.
        session.onEdited = { text in
            let entry = HistoryFile.entry(for: text.trimmingTrailingBlanks())
            if history?.append(entry) ?? true { editor.addHistory(entry) }
        }
        session.writeOutput(
            "cellar \(VersionInfo.version) (SQLite \(Database.libraryVersion)); .help for commands, Ctrl-D to quit")
        if let openedLine { session.writeOutput(openedLine) }
        var lineNumber = 0
        while true {
            try? session.output.flush()
            let prompt = currentPrompt()
            switch editor.readLine(prompt: prompt, interruptDescriptor: interrupts) {
            case .interrupted:
                watcher.drainShellInterrupts()
                accumulator.discard()
            case .endOfInput:
                accumulator.discard()
                if session.requestQuit() { return }
            case .line(let text):
                // `.edit` on a line of its own while a statement is half typed edits that statement.
                if let pending = pendingStatementToEdit(text) {
                    accumulator.discard()
                    session.pendingEdit = pending
                    let flow = session.handle(.dotCommand(text), path: "<stdin>", lineNumber: 1)
                    session.pendingEdit = nil
                    watcher.drainShellInterrupts()
                    if flow == .stop { return }
                    continue
                }
                // Errors are placed within the statement typed: its first line is line 1.
                if accumulator.isEmpty { lineNumber = 0 }
                lineNumber += 1
                let outcome = accumulator.add(text, lineNumber: lineNumber)
                remember(outcome, history: history, editor: editor)
                let flow = session.handle(outcome, path: "<stdin>", lineNumber: lineNumber)
                watcher.drainShellInterrupts()
                if flow == .stop { return }
            }
        }
    }

    /// The statement being typed, when `line` is `.edit` on its own and the statement is not inside
    /// a string or a comment (where `.edit` is just text).
    private func pendingStatementToEdit(_ line: String) -> String? {
        guard !accumulator.isEmpty, line.drop(while: { $0 == " " || $0 == "\t" }).first == "." else { return nil }
        let command = DotCommandLine(line)
        guard command.arguments.isEmpty, DotCommandCatalog.resolve(command.name) == .command("edit") else { return nil }
        let text = accumulator.text
        guard !SQLLexer(Array(text.utf8)).contains(where: \.isOpen) else { return nil }
        return text
    }

    /// The prompt for the next line: `.prompt`'s or cellar's, marked with `*` while a transaction is open.
    private func currentPrompt() -> String {
        let custom = session.settings.prompts
        if !accumulator.isEmpty { return custom?.continuation ?? Self.continuationPrompt }
        guard (try? session.connection.isAutocommit) == false else { return custom?.main ?? Self.prompt }
        guard let main = custom?.main else { return Self.transactionPrompt }
        return main.hasSuffix("> ") ? String(main.dropLast(2)) + "*> " : main
    }

    private func remember(_ outcome: StatementAccumulator.Outcome, history: HistoryFile?, editor: LineEditor) {
        let text: String
        switch outcome {
        case .pending, .skipped: return
        case .dotCommand(let line): text = line
        case .sql(let sql, _): text = sql
        }
        let entry = HistoryFile.entry(for: text)
        if history?.append(entry) ?? true { editor.addHistory(entry) }
    }

    /// Whether the line being typed is coloured: a line editor that can (GNU readline), standard output
    /// a terminal whose `TERM` is set and not `dumb`, and colour not turned off (`NO_COLOR`,
    /// `--color never`).
    private var highlightsInput: Bool {
        let terminal = session.io.environment["TERM", default: ""]
        return LineEditor.canHighlight && session.configuration.usesColor && session.io.isOutputTerminal
            && !terminal.isEmpty && terminal != "dumb"
    }

    private func openHistory() -> HistoryFile? {
        guard let path = HistoryFile.path(in: session.io.environment) else { return nil }
        do {
            return try HistoryFile(path: path)
        } catch {
            session.io.printError("cellar: warning: \(ControlCharacterEscaping.escape(String(describing: error)))")
            return nil
        }
    }
}
