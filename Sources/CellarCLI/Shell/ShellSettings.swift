import CellarKit

/// What the dot-commands change: how results look and what is reported after each statement.
struct ShellSettings {
    /// How results are written, the header choice and the NULL text (`.mode`, `.headers`, `.nullvalue`).
    var render: RenderOptions
    /// Whether each statement's run time is printed (`.timer`).
    var showsTimer = false
    /// Whether `.mode auto` is on: ``render`` draws a box when the rows fit the terminal's width and
    /// the `line` layout when they would not.
    var isAutoMode = false
    /// The pager results taller than the screen go to (`.pager`), nil when off (the default).
    var pagerCommand: String?
    /// What is printed after a statement that changed rows (`.changes`).
    enum ChangesReport {
        /// Nothing (`.changes off`; piped input's default, as in sqlite3).
        case off
        /// `3 rows changed`, on the terminal only: the default at a terminal.
        case count
        /// sqlite3's `changes: 3   total_changes: 7` after every statement that may write (`.changes on`).
        case sqlite3
    }

    /// What is printed after a statement that changed rows (`.changes`).
    var changes: ChangesReport
    /// Whether reading stops at the first error (`.bail`, `--bail`).
    var bails: Bool
    /// How many rows a long result shows (first half and last half), nil for all (`.maxrows`).
    var maxRows: Int?
    /// Whether a long result shows as many rows as fit the terminal's window instead of ``maxRows``
    /// (`.maxrows auto`, the default at a terminal); ``maxRows`` is used when the window's height is not
    /// known.
    var fitsMaxRowsToWindow = false
    /// Whether a result in a human mode (box, table, markdown, line) shows the long-result view's
    /// ``defaultMaxRows`` while machine modes write every row: the default when input or output is not
    /// a terminal (docs/shell/README.md, "Long results"), until `.maxrows` sets one view for every mode.
    var limitsHumanModes = false
    /// Whether file access and other databases are refused (`--safe`).
    let isSafe: Bool
    /// Whether each command is written to the output before it runs (`.echo`).
    var echoes = false
    /// What is shown before each statement's result (`.eqp`).
    var plan = ShellSession.PlanDisplay.off
    /// How `EXPLAIN` and other results are laid out (`.explain`).
    var explain = ShellSession.ExplainLayout.auto
    /// Whether SQLite's counters are shown after each statement (`.stats`).
    var showsStats = false
    /// The prompts `.prompt` set (nil: cellar's own).
    var prompts: (main: String, continuation: String)?

    /// The long-result view (docs/shell/README.md, "Long results") shows 40 rows, the first 20 and the
    /// last 20, where the window's height is not known.
    static let defaultMaxRows = 40

    /// The settings a new shell starts with. For a person at a terminal (input and output): `.mode
    /// auto`, the long-result view sized to the window and `N rows changed` after a write. Otherwise
    /// box when only the output is a terminal, list when it is not, no count, and every row in the
    /// machine modes (a script's output into a file is the same as sqlite3's) but the long-result view's
    /// 40 rows in the human ones.
    init(isInputTerminal: Bool, isOutputTerminal: Bool, bails: Bool, isSafe: Bool) {
        let isInteractive = isInputTerminal && isOutputTerminal
        render = RenderOptions(mode: isOutputTerminal ? .box : .list, escapesControlCharacters: isOutputTerminal)
        isAutoMode = isInteractive
        maxRows = isInteractive ? Self.defaultMaxRows : nil
        fitsMaxRowsToWindow = isInteractive
        limitsHumanModes = !isInteractive
        changes = isInteractive ? .count : .off
        self.bails = bails
        self.isSafe = isSafe
    }
}
