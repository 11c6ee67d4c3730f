import Glibc

#if CELLAR_LIBEDIT
    @preconcurrency import CLibedit
#else
    @preconcurrency import CReadline
#endif

/// GNU readline (or libedit's readline interface, in a build with `CELLAR_LINE_EDITOR=libedit`), driven
/// through its callback interface so that a Ctrl-C (seen by ``InterruptWatcher`` as a readable pipe) can
/// abandon the line being edited.
///
/// This is the only file that imports the line editor. It keeps its state in C globals, so there is
/// one editor per process and every call happens on the main thread.
final class LineEditor {
    /// What one prompt produced.
    enum Event: Equatable {
        /// A line, without its line break.
        case line(String)
        /// Ctrl-D on an empty line, or the end of input.
        case endOfInput
        /// Ctrl-C: the line was abandoned.
        case interrupted
    }

    /// Computes completion candidates from the whole line and the cursor's byte offset.
    typealias Completer = (_ line: String, _ cursor: Int) -> [String]
    /// The line as it should look: the same text with colour codes added (never other changes).
    typealias Highlighter = (_ line: String) -> String

    // Readline's callbacks are C function pointers and cannot capture context: these hold what they
    // need. Safe because readline only calls them on the main thread, inside readLine.
    nonisolated(unsafe) private static var completer: Completer?
    nonisolated(unsafe) private static var candidates: [String] = []
    nonisolated(unsafe) private static var nextCandidate = 0
    nonisolated(unsafe) private static var received: Event?
    nonisolated(unsafe) private static var sqlBreaks = strdup(CompletionEngine.wordBreakCharacters)
    nonisolated(unsafe) private static var pathBreaks = strdup(" \t")
    nonisolated(unsafe) private static var quotes = strdup("'\"")
    nonisolated(unsafe) private static var noPrefixes = strdup("")
    nonisolated(unsafe) private static var highlighter: Highlighter?
    nonisolated(unsafe) private static var prompt = ""

    /// Whether this build can colour the line being typed: GNU readline calls a redisplay hook;
    /// libedit declares one but draws the line itself, so its line stays plain.
    static var canHighlight: Bool {
        #if CELLAR_LIBEDIT
            false
        #else
            true
        #endif
    }

    /// Sets readline up: no signal handlers of its own (Ctrl-C is the watcher's), Tab completion, and
    /// the line coloured by `highlighter` when given (and ``canHighlight``).
    init(completer: @escaping Completer, highlighter: Highlighter? = nil) {
        Self.completer = completer
        Self.useUTF8Locale()
        rl_readline_name = UnsafePointer(strdup("cellar"))
        rl_catch_signals = 0
        // A quoted file name (`.read 'my file.sql'`) is one word; readline closes the quote on a match.
        rl_completer_quote_characters = UnsafePointer(Self.quotes)
        #if CELLAR_LIBEDIT
            // libedit splits words at rl_basic_word_break_characters, read after this hook runs; what
            // the hook returns are prefixes kept in the word, so it picks the breaks and returns none.
            rl_basic_word_break_characters = UnsafePointer(Self.sqlBreaks)
            rl_completion_word_break_hook = {
                rl_basic_word_break_characters = UnsafePointer(LineEditor.wordBreaks())
                return LineEditor.noPrefixes
            }
        #else
            rl_completer_word_break_characters = UnsafePointer(Self.sqlBreaks)
            rl_completion_word_break_hook = { LineEditor.wordBreaks() }
        #endif
        rl_attempted_completion_function = { text, _, _ in
            LineEditor.complete(text)
        }
        using_history()
        #if !CELLAR_LIBEDIT
            if let highlighter {
                Self.highlighter = highlighter
                // Readline skips reading the terminal's capabilities (and draws as on a dumb terminal,
                // scrolling the line sideways) when a redisplay hook is set before it initialises.
                rl_initialize()
                rl_redisplay_function = { LineEditor.redisplayHighlighted() }
            }
        #endif
    }

    /// After a dot-command only blanks separate words, so paths keep their `-`, `(` and quotes.
    private static func wordBreaks() -> UnsafeMutablePointer<CChar>? {
        let line = rl_line_buffer.map { String(cString: $0) } ?? ""
        return line.drop { $0 == " " }.first == "." ? pathBreaks : sqlBreaks
    }

    /// Readline decodes typed characters by `LC_CTYPE`: take the user's locale, but a UTF-8 one, so that
    /// `é` or `日本` is one character to edit, not two or three bytes.
    private static func useUTF8Locale() {
        let chosen = setlocale(LC_CTYPE, "").map { String(cString: $0) } ?? "C"
        let lowered = chosen.lowercased()
        if !lowered.contains("utf-8"), !lowered.contains("utf8") {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
    }

    /// Adds `entry` to the in-memory history (the Up arrow).
    func addHistory(_ entry: String) {
        add_history(entry)
    }

    /// Shows `prompt` and edits one line, until Enter, Ctrl-D on an empty line, or a byte on
    /// `interruptDescriptor` (Ctrl-C).
    func readLine(prompt: String, interruptDescriptor: Int32) -> Event {
        if isatty(STDIN_FILENO) == 0 { return readPlainLine(prompt: prompt, interruptDescriptor: interruptDescriptor) }
        Self.received = nil
        Self.prompt = prompt
        rl_callback_handler_install(prompt) { line in
            if let line {
                LineEditor.received = .line(String(cString: line))
                free(line)
            } else {
                LineEditor.received = .endOfInput
            }
            rl_callback_handler_remove()
        }
        while Self.received == nil {
            var descriptors = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: interruptDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                rl_callback_handler_remove()
                return .endOfInput
            }
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                abandonLine()
                return .interrupted
            }
            if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                rl_callback_read_char()
            }
        }
        if Self.received == .endOfInput { writeTerminal("\n") }
        return Self.received ?? .endOfInput
    }

    /// One line of input that is not a terminal (`shell -interactive` on piped input): there is nothing
    /// to edit, and libedit's character callback does not read a pipe, so the bytes are read as they
    /// come; the prompt and the line are echoed as readline echoes them, and Ctrl-C still interrupts.
    private func readPlainLine(prompt: String, interruptDescriptor: Int32) -> Event {
        writeTerminal(prompt)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            var descriptors = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: interruptDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&descriptors, 2, -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                writeTerminal("^C\n")
                return .interrupted
            }
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.isEmpty, byte != UInt8(ascii: "\n") {
            writeTerminal("\n")
            return .endOfInput
        }
        let line = String(decoding: bytes, as: UTF8.self)
        writeTerminal(line + "\n")
        return .line(line)
    }

    private func abandonLine() {
        // Before readline restores the terminal: leaving bracketed-paste mode writes a carriage return.
        writeTerminal("^C")
        rl_free_line_state()
        #if !CELLAR_LIBEDIT
            // libedit keeps no signal state between characters, so it has nothing to clean up.
            rl_callback_sigcleanup()
        #endif
        rl_replace_line("", 0)
        rl_callback_handler_remove()
        writeTerminal("\n")
    }

    private func writeTerminal(_ text: String) {
        fputs(text, stdout)
        fflush(stdout)
    }

    // MARK: - Highlighting

    #if !CELLAR_LIBEDIT
        /// Readline draws the line as usual, keeping its own record of the screen exact; then the same
        /// characters are drawn again over it in colour, from the text's first cell, and the cursor put
        /// back. Nothing in readline's buffer changes, so what runs and what history keeps is what was
        /// typed. Lines readline draws differently (control characters, a search prompt, a line taller
        /// than the screen or over 4 KiB) are left plain.
        private static func redisplayHighlighted() {
            rl_redisplay()
            guard let highlighter, let buffer = rl_line_buffer, rl_end <= 4096,
                let shown = rl_display_prompt.map({ String(cString: $0) }), shown == prompt
            else { return }
            let line = UnsafeRawBufferPointer(start: buffer, count: Int(rl_end)).map { $0 }
            var rows: Int32 = 0
            var columns: Int32 = 0
            rl_get_screen_size(&rows, &columns)
            guard
                let geometry = InputLineGeometry(prompt: prompt, line: line, point: Int(rl_point), columns: Int(columns)),
                geometry.rowsAboveCursor < Int(rows) - 1
            else { return }
            let coloured = highlighter(String(decoding: line, as: UTF8.self))
            var output = "\u{1B}7"
            if geometry.rowsAboveCursor > 0 { output += "\u{1B}[\(geometry.rowsAboveCursor)A" }
            output += "\r"
            if geometry.textColumn > 0 { output += "\u{1B}[\(geometry.textColumn)C" }
            output += coloured + "\u{1B}8"
            let stream = rl_outstream ?? stdout
            fputs(output, stream)
            fflush(stream)
        }
    #endif

    // MARK: - Completion

    private static func complete(_ text: UnsafePointer<CChar>?) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        rl_attempted_completion_over = 1
        let line = rl_line_buffer.map { String(cString: $0) } ?? ""
        candidates = completer?(line, Int(rl_point)) ?? []
        nextCandidate = 0
        rl_completion_append_character = candidates.count == 1 && candidates[0].hasSuffix("/") ? 0 : 32
        #if CELLAR_LIBEDIT
            adaptToLibedit(word: text.map { String(cString: $0) } ?? "")
        #endif
        guard !candidates.isEmpty else { return nil }
        return rl_completion_matches(text) { _, _ in
            guard LineEditor.nextCandidate < LineEditor.candidates.count else { return nil }
            defer { LineEditor.nextCandidate += 1 }
            return strdup(LineEditor.candidates[LineEditor.nextCandidate])
        }
    }

    #if CELLAR_LIBEDIT
        /// libedit leaves to the application two things GNU readline does itself: its word keeps the
        /// opening quote, which the candidates must repeat (and close, when only one is left), and it
        /// appends a space even where one already follows the cursor.
        private static func adaptToLibedit(word: String) {
            if let quote = word.first, quote == "'" || quote == "\"" {
                let closing = candidates.count == 1 && !candidates[0].hasSuffix("/") ? String(quote) : ""
                candidates = candidates.map { "\(quote)\($0)\(closing)" }
            }
            if rl_point < rl_end, rl_line_buffer?[Int(rl_point)] == 32 {
                rl_completion_append_character = 0
            }
        }
    #endif
}
