/// How result rows are written (docs/scripts-and-data.md, "Result rendering").
///
/// Human modes (``box``, ``table``, ``markdown``, ``line``, ``column``) show blobs by size and type and always
/// escape control characters; machine modes are lossless.
public enum OutputMode: String, CaseIterable, Sendable {
    /// A grid drawn with Unicode box characters (the default on a terminal).
    case box
    /// A grid drawn with `+`, `-` and `|`.
    case table
    /// A GitHub-flavoured Markdown table.
    case markdown
    /// One `name = value` line per column, a blank line between rows.
    case line
    /// `|`-separated values, one row a line, as the sqlite3 CLI's default (the default into a pipe).
    case list
    /// RFC 4180 comma-separated values, rows ending in CRLF.
    case csv
    /// Tab-separated values; tab, newline, carriage return and backslash escaped as `\t`, `\n`, `\r`, `\\`.
    case tsv
    /// One JSON array of objects.
    case json
    /// One JSON object per line.
    case jsonl
    /// SQL literals separated by commas.
    case quote
    /// `INSERT` statements.
    case insert
    /// sqlite3's `column`: names, dashes, then cells padded to the column's width, two blanks apart.
    case column
    /// sqlite3's `html`: `<TR>` rows of `<TD>` cells, text with HTML entities.
    case html
    /// sqlite3's `tcl`: cells as C-style quoted strings separated by blanks.
    case tcl
    /// sqlite3's `ascii`: cells separated by the unit separator (0x1F), rows by the record separator (0x1E).
    case ascii

    /// Whether the mode is for people (blobs summarised, text always escaped) rather than programs.
    public var isHuman: Bool {
        switch self {
        case .box, .table, .markdown, .line, .column: true
        default: false
        }
    }

    /// Whether column headers are shown when the user has not said (on in the human modes, off in the machine ones).
    public var showsHeadersByDefault: Bool { isHuman }

    /// What the mode writes between cells unless told otherwise (`.separator`).
    public var defaultColumnSeparator: String {
        switch self {
        case .csv: ","
        case .tsv: "\t"
        case .ascii: "\u{1F}"
        case .tcl: " "
        default: "|"
        }
    }

    /// What the mode writes after each row unless told otherwise.
    public var defaultRowSeparator: String {
        switch self {
        case .csv: "\r\n"
        case .ascii: "\u{1E}"
        default: "\n"
        }
    }
}
