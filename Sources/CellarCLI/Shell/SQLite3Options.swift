import CellarKit

/// The command-line options of sqlite3 that `cellar shell` accepts (with one dash, as sqlite3 spells
/// them, or two), and what they set before the first command runs.
enum SQLite3Options {
    /// The output modes sqlite3 offers as options (`-csv`, `-box`, …).
    static let modes = [
        "ascii", "box", "column", "csv", "html", "json", "line", "list", "markdown", "quote", "table", "tabs",
    ]

    /// `-csv`, `-box`, …: one flag per mode.
    static let modeOptions = modes.map { OptionSpec($0, help: "Set the output mode to \($0) (as .mode \($0)).") }
    static let header = OptionSpec("header", help: "Show column headers (as .headers on).")
    static let noHeader = OptionSpec("noheader", help: "Hide column headers (as .headers off).")
    static let separator = OptionSpec("separator", value: "sep", help: "Write SEP between cells in list and csv output.")
    static let newline = OptionSpec("newline", value: "sep", help: "Write SEP after each row in list and csv output.")
    static let nullValue = OptionSpec("nullvalue", value: "text", help: "Show NULL as TEXT.")
    static let cmd = OptionSpec(
        "cmd", value: "command", repeatable: true, help: "Run COMMAND (SQL or a dot-command) before the input.")
    static let echo = OptionSpec("echo", help: "Write each command before it runs (as .echo on).")
    static let batch = OptionSpec("batch", help: "Read standard input as a script even from a terminal: no prompts.")
    static let interactive = OptionSpec(
        "interactive", help: "Prompt and read with line editing even when standard input is not a terminal.")
    static let readOnly = OptionSpec("readonly", help: "Open the database read-only.")

    /// The options, for the shell's ``CommandSpec``.
    static let options: [OptionSpec] =
        modeOptions + [header, noHeader, separator, newline, nullValue, cmd, echo, batch, interactive, readOnly]

    /// Applies the options of `arguments` to `session`'s settings: the last mode and header option
    /// given wins, as in sqlite3.
    static func apply(_ arguments: ParsedArguments, to session: ShellSession) throws {
        if let mode = arguments.lastFlag(of: modeOptions)?.long {
            try session.setMode(DotCommandLine(".mode " + mode))
            // As sqlite3's options (not its `.mode`): `-csv` keeps rows ending in a newline, and
            // `-column` shows no names unless `-header` asks.
            if mode == "csv" { session.settings.render.rowSeparator = "\n" }
            if mode == "column" { session.settings.render.showsHeaders = false }
        }
        if let header = arguments.lastFlag(of: Self.header, Self.noHeader) {
            session.settings.render.showsHeaders = header == Self.header
        }
        if let separator = arguments.value(of: Self.separator) { session.settings.render.columnSeparator = separator }
        if let newline = arguments.value(of: Self.newline) { session.settings.render.rowSeparator = newline }
        if let null = arguments.value(of: Self.nullValue) { session.settings.render.nullValue = null }
        if arguments.has(Self.echo) { session.settings.echoes = true }
    }
}
