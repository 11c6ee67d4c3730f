import CellarKit

/// `.pager on|off|COMMAND`: results taller than the screen go to a pager (psql's `\pset pager`).
extension ShellSession {
    /// `.pager` shows the setting; `on` takes `$PAGER` (`less` when it is unset), `off` stops paging,
    /// anything else is the command, run with `/bin/sh -c`. Under `--safe` only `on` and `off` are
    /// accepted: a command named here could run anything, as `.shell` could.
    func setPager(_ command: DotCommandLine) throws {
        guard let first = command.arguments.first else {
            writeOutput("pager: " + (settings.pagerCommand.map { "on (\(shown($0)))" } ?? "off"))
            return
        }
        switch command.arguments.count == 1 ? first.lowercased() : "" {
        case "off":
            settings.pagerCommand = nil
        case "on":
            let variable = io.environment["PAGER"] ?? ""
            settings.pagerCommand = variable.allSatisfy(\.isWhitespace) ? "less" : variable
        default:
            if settings.isSafe { throw DotCommandError(".pager COMMAND is not allowed with --safe (.pager on uses $PAGER)") }
            settings.pagerCommand = command.arguments.joined(separator: " ")
        }
    }

    /// The sink for the next result when it may need the pager: `.pager` on, a person at the terminal,
    /// results on that terminal and its height known.
    func pagerSink() -> PagerSink? {
        guard let command = settings.pagerCommand, isInteractive, readDepth == 0, isOutputTerminal,
            let size = io.terminalSize()
        else { return nil }
        return PagerSink(terminal: output, command: command, screenRows: size.rows) { command, input in
            try ShellSession.spawnShell(command, input: input, output: nil)
        }
    }
}
