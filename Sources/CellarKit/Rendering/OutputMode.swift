/// How result rows are written (SPEC "Result rendering").
public enum OutputMode: String, CaseIterable, Sendable {
    /// `|`-separated values, one row a line, as the sqlite3 CLI's default.
    case list

    /// Whether column headers are shown when the user has not said.
    public var showsHeadersByDefault: Bool { false }
}
