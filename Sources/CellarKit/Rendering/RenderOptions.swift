/// What a ``ResultRenderer`` writes and how.
public struct RenderOptions: Sendable {
    /// The output format.
    public var mode: OutputMode
    /// Whether a header row is written; nil takes the mode's default.
    public var showsHeaders: Bool?
    /// The text shown for `NULL` in human modes and in list, csv and tsv.
    public var nullValue: String
    /// Whether control characters in text are escaped in machine modes (on a terminal every mode
    /// escapes them; human modes always do).
    public var escapesControlCharacters: Bool
    /// The table named by `insert` mode's statements.
    public var insertTableName: String
    /// How many rows `box`, `table` and `markdown` read before fixing their column widths; wider cells
    /// in later rows are cut with `…`.
    public var sizingRowCount: Int
    /// What `list`, `csv` and `tsv` write between cells instead of the mode's own (`|`, `,`, tab);
    /// nil keeps the mode's (the shell's `.separator`).
    public var columnSeparator: String?
    /// What `list`, `csv` and `tsv` write after each row instead of the mode's own (`\n`, or `\r\n`
    /// for csv); nil keeps the mode's.
    public var rowSeparator: String?
    /// Fixed widths of the first columns in `box`, `table` and `markdown` (the shell's `.width`): a
    /// wider cell is cut with `…`; 0 sizes a column from its content; a negative width also aligns
    /// the column right. Empty sizes every column from its content.
    public var columnWidths: [Int] = []
    /// Whether `insert` mode writes line breaks in text as they are, rather than as
    /// `replace('a\nb','\n',char(10))` (a dump's `--newlines`).
    public var insertKeepsNewlines = false

    /// When set, a `box`, `table` or `markdown` result whose grid would be wider than this many
    /// terminal columns is written in the `line` layout instead, as psql's `\x auto` does (the shell's
    /// `.mode auto`); nil always draws the grid.
    public var maximumGridWidth: Int?

    /// The number of rows grid modes size their columns from by default.
    public static let defaultSizingRowCount = 1000

    /// Creates options; by default list mode, mode's own header default, empty null value, no escaping.
    public init(
        mode: OutputMode = .list, showsHeaders: Bool? = nil, nullValue: String = "", escapesControlCharacters: Bool = false,
        insertTableName: String = "table", sizingRowCount: Int = RenderOptions.defaultSizingRowCount,
        maximumGridWidth: Int? = nil
    ) {
        self.mode = mode
        self.showsHeaders = showsHeaders
        self.nullValue = nullValue
        self.escapesControlCharacters = escapesControlCharacters
        self.insertTableName = insertTableName
        self.sizingRowCount = sizingRowCount
        self.maximumGridWidth = maximumGridWidth
    }

    /// Whether headers are written, after applying the mode's default.
    public var resolvedShowsHeaders: Bool { showsHeaders ?? mode.showsHeadersByDefault }
}
