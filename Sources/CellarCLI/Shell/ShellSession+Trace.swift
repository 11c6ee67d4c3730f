import CellarKit

/// sqlite3's `.trace`.
extension ShellSession {
    /// `.trace stdout|stderr|off`: each statement SQLite starts, as sqlite3 writes it (the SQL with its
    /// trailing semicolons replaced by one; a trigger's steps as `-- …` comments), the shell's own
    /// queries included, as in sqlite3.
    func setTrace(_ command: DotCommandLine) throws {
        let target = command.arguments.first ?? "stdout"
        let toStandardError: Bool
        switch target {
        case "off":
            try database.traceStatementText(nil)
            return
        case "stdout": toStandardError = false
        case "stderr": toStandardError = true
        default: throw DotCommandError("Usage: .trace stdout|stderr|off (a file is not supported)")
        }
        try database.traceStatementText { [weak self] text in
            guard let self else { return }
            var end = text.endIndex
            while end > text.startIndex, text[text.index(before: end)] == ";" { end = text.index(before: end) }
            let line = self.shownKeepingLayout(String(text[..<end])) + ";"
            if toStandardError { self.io.printError(line) } else { self.writeOutput(line) }
        }
    }
}
