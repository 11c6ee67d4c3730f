import CellarKit
import Glibc

/// sqlite3's `.once`, `.print`, `.echo`, `.prompt`, `.separator`, `.width` and `.show`.
extension ShellSession {
    /// `.once FILE`: the output of the next command (SQL or dot-command) goes to FILE, then back.
    func redirectOnce(_ command: DotCommandLine) throws {
        // A bare `.once` leaves the next output where it goes, as in sqlite3.
        guard let path = command.arguments.first else { return }
        guard !path.hasPrefix("-") else { throw DotCommandError("Usage: .once FILE") }
        try replaceRedirection(with: path)
        onceCountdown = 2
    }

    /// Writes what is buffered and closes the `.output`/`.once` file, if any; then opens `path` (nil or
    /// `stdout`: standard output again).
    func replaceRedirection(with path: String?) throws {
        try? redirection?.flush()
        if let redirection { Glibc.close(redirection.descriptor) }
        redirection = nil
        redirectionPath = nil
        onceCountdown = 0
        guard let path, path != "stdout" else { return }
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw DotCommandError("cannot write '\(path)': \(SystemError(operation: "open", code: errno))")
        }
        redirection = FileDescriptorSink(descriptor: descriptor)
        redirectionPath = path
    }

    /// Counts a command down for `.once`: after the command that follows it, output goes back.
    func countDownOnce() {
        guard onceCountdown > 0 else { return }
        onceCountdown -= 1
        if onceCountdown == 0 { try? replaceRedirection(with: nil) }
    }

    /// `.echo on|off` writes each command before it runs.
    func echo(_ text: String) {
        guard settings.echoes else { return }
        writeOutput(shownKeepingLayout(text))
    }

    /// `.print TEXT…`: the arguments, unquoted, joined by spaces.
    func printArguments(_ command: DotCommandLine) {
        writeOutput(shownKeepingLayout(command.arguments.joined(separator: " ")))
    }

    /// `.prompt MAIN [CONTINUE]`.
    func setPrompts(_ command: DotCommandLine) throws {
        // A bare `.prompt` changes nothing, as in sqlite3.
        guard let main = command.arguments.first else { return }
        let continuation = command.arguments.count == 2 ? command.arguments[1] : settings.prompts?.continuation
        settings.prompts = (main, continuation ?? InteractiveShell.continuationPrompt)
    }

    /// `.separator COL [ROW]`: what list, csv and tsv write between cells and after rows (and what
    /// `.import` splits fields on); write `\t` for a tab, `\n` for a line break.
    func setSeparators(_ command: DotCommandLine) throws {
        guard let column = command.arguments.first, command.arguments.count <= 2 else {
            throw DotCommandError("Usage: .separator COL [ROW]")
        }
        settings.render.columnSeparator = column
        if command.arguments.count == 2 { settings.render.rowSeparator = command.arguments[1] }
    }

    /// `.width N…`: the widths of the columns in box, table and markdown modes (0 sizes a column from
    /// its content; a negative width aligns it right); no argument goes back to sizing every column.
    func setWidths(_ command: DotCommandLine) throws {
        var widths: [Int] = []
        // As sqlite3: what is not a number counts as 0 (sized from the content).
        for argument in command.arguments {
            widths.append(Int(max(-10_000, min(10_000, DotCommandLine.integerValue(argument)))))
        }
        settings.render.columnWidths = widths
    }

    /// `.show`: the settings, in sqlite3's layout.
    func showSettings() throws {
        let render = settings.render
        // The name as it was given, as sqlite3 shows it.
        let file = databaseName
        let rows: [(String, String)] = [
            ("echo", onOff(settings.echoes)), ("eqp", settings.plan.rawValue), ("explain", settings.explain.rawValue),
            ("headers", onOff(render.resolvedShowsHeaders)),
            ("mode", settings.explain == .on ? "explain" : settings.isAutoMode ? "auto" : render.mode.rawValue),
            ("nullvalue", Self.quoted(render.nullValue)), ("output", redirectionPath ?? "stdout"),
            ("colseparator", Self.quoted(render.columnSeparator ?? render.mode.defaultColumnSeparator)),
            ("rowseparator", Self.quoted(render.rowSeparator ?? render.mode.defaultRowSeparator)),
            ("stats", onOff(settings.showsStats)),
            ("width", render.columnWidths.map { "\($0) " }.joined()), ("filename", file.isEmpty ? ":memory:" : file),
        ]
        for (name, value) in rows {
            writeOutput(String(repeating: " ", count: max(12 - name.count, 0)) + name + ": " + shown(value))
        }
    }

    private func onOff(_ value: Bool) -> String { value ? "on" : "off" }

    /// `text` in double quotes with C escapes, as `.show` writes strings: every byte that is not
    /// printable ASCII as `\NNN` octal, as sqlite3's `output_c_string` does.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\n"): result += "\\n"
            case UInt8(ascii: "\r"): result += "\\r"
            case UInt8(ascii: "\t"): result += "\\t"
            case UInt8(ascii: "\""): result += "\\\""
            case UInt8(ascii: "\\"): result += "\\\\"
            case 0x20..<0x7F: result.unicodeScalars.append(Unicode.Scalar(byte))
            default: result += "\\" + String(byte >> 6) + String((byte >> 3) & 7) + String(byte & 7)
            }
        }
        return result + "\""
    }
}
