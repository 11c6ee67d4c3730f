/// What a ``ResultRenderer`` writes and how.
public struct RenderOptions: Sendable {
    /// The output format.
    public var mode: OutputMode
    /// Whether a header row is written; nil takes the mode's default.
    public var showsHeaders: Bool?
    /// The text shown for `NULL` in human modes and list mode.
    public var nullValue: String
    /// Whether control characters in text are escaped (on a terminal every mode escapes them).
    public var escapesControlCharacters: Bool

    /// Creates options; by default list mode, mode's own header default, empty null value, no escaping.
    public init(
        mode: OutputMode = .list, showsHeaders: Bool? = nil, nullValue: String = "", escapesControlCharacters: Bool = false
    ) {
        self.mode = mode
        self.showsHeaders = showsHeaders
        self.nullValue = nullValue
        self.escapesControlCharacters = escapesControlCharacters
    }

    /// Whether headers are written, after applying the mode's default.
    public var resolvedShowsHeaders: Bool { showsHeaders ?? mode.showsHeadersByDefault }
}
