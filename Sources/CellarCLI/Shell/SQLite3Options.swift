import CellarKit

/// The command-line options of sqlite3 that `cellar shell` accepts (with one dash, as sqlite3 spells
/// them, or two), and what they set before the first command runs.
enum SQLite3Options {
    /// The output modes sqlite3 offers as options (`-csv`, `-box`, …).
    static let modes = [
        "ascii", "box", "column", "csv", "html", "json", "line", "list", "markdown", "quote", "table", "tabs",
    ]

    /// The options, for the shell's ``CommandSpec``.
    static let options: [OptionSpec] =
        modes.map { OptionSpec($0, help: "Set the output mode to \($0) (as .mode \($0)).") } + [
            OptionSpec("header", help: "Show column headers (as .headers on)."),
            OptionSpec("noheader", help: "Hide column headers (as .headers off)."),
            OptionSpec("separator", value: "sep", help: "Write SEP between cells in list and csv output."),
            OptionSpec("newline", value: "sep", help: "Write SEP after each row in list and csv output."),
            OptionSpec("nullvalue", value: "text", help: "Show NULL as TEXT."),
            OptionSpec(
                "cmd", value: "command", repeatable: true, help: "Run COMMAND (SQL or a dot-command) before the input."),
            OptionSpec("echo", help: "Write each command before it runs (as .echo on)."),
            OptionSpec("batch", help: "Read standard input as a script even from a terminal: no prompts."),
            OptionSpec("interactive", help: "Prompt and read with line editing even when standard input is not a terminal."),
            OptionSpec("readonly", help: "Open the database read-only."),
        ]

    /// Applies the options of `arguments` to `session`'s settings: the last mode and header option
    /// given wins, as in sqlite3.
    static func apply(_ arguments: ParsedArguments, to session: ShellSession) throws {
        if let mode = arguments.flags.last(where: modes.contains) {
            try session.setMode(DotCommandLine(".mode " + mode))
            // As sqlite3's options (not its `.mode`): `-csv` keeps rows ending in a newline, and
            // `-column` shows no names unless `-header` asks.
            if mode == "csv" { session.settings.render.rowSeparator = "\n" }
            if mode == "column" { session.settings.render.showsHeaders = false }
        }
        if let header = arguments.lastFlag(of: "header", "noheader") {
            session.settings.render.showsHeaders = header == "header"
        }
        if let separator = arguments.value("separator") { session.settings.render.columnSeparator = separator }
        if let newline = arguments.value("newline") { session.settings.render.rowSeparator = newline }
        if let null = arguments.value("nullvalue") { session.settings.render.nullValue = null }
        if arguments.has("echo") { session.settings.echoes = true }
    }
}
