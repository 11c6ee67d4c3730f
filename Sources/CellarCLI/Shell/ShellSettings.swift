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
    /// Whether the rows changed by each statement are printed (`.changes`).
    var showsChanges = false
    /// Whether reading stops at the first error (`.bail`, `--bail`).
    var bails: Bool
    /// How many rows a long result shows (first half and last half), nil for all (`.maxrows`).
    var maxRows: Int?
    /// Whether file access and other databases are refused (`--safe`).
    let isSafe: Bool
    /// Whether each command is written to the output before it runs (`.echo`).
    var echoes = false
    /// Whether the query plan is shown before each statement's result (`.eqp`).
    var showsPlan = false
    /// Whether SQLite's counters are shown after each statement (`.stats`).
    var showsStats = false
    /// The prompts `.prompt` set (nil: cellar's own).
    var prompts: (main: String, continuation: String)?

    /// SPEC: the long-result view shows 40 rows, the first 20 and the last 20.
    static let defaultMaxRows = 40

    /// The settings a new shell starts with: box on a terminal, list otherwise; the long-result view
    /// only for a person at a terminal (a script's output into a file gets every row).
    init(isInputTerminal: Bool, isOutputTerminal: Bool, bails: Bool, isSafe: Bool) {
        render = RenderOptions(mode: isOutputTerminal ? .box : .list, escapesControlCharacters: isOutputTerminal)
        maxRows = isInputTerminal && isOutputTerminal ? Self.defaultMaxRows : nil
        self.bails = bails
        self.isSafe = isSafe
    }
}
