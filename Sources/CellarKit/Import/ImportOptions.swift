/// How ``Database/importDelimited(from:path:into:options:)`` reads its input.
public struct ImportOptions: Sendable {
    /// The byte between fields: `,` for CSV, `\t`, `|`, ….
    public var separator: UInt8
    /// How many records to skip at the start (after the byte order mark): `1` skips a header row
    /// when the table exists already.
    public var skippedRecords: Int
    /// An unquoted field holding exactly this text is NULL; a quoted one never is (`""` is the empty
    /// string). nil reads every field as text.
    public var nullText: String?
    /// The byte that ends a record: `\n` (a `\r` before it is dropped), or another such as sqlite3's
    /// `--ascii` 0x1E.
    public var recordSeparator = UInt8(ascii: "\n")
    /// Whether `"…"` quotes a field (CSV); when false every byte is data (sqlite3's `--ascii`).
    public var honoursQuotes = true
    /// The schema the table is in or is created in (`main`, `temp`, an attached name); nil for
    /// SQLite's search order.
    public var schema: String?

    /// Creates options; by default CSV, nothing skipped, an unquoted empty field is NULL.
    public init(separator: UInt8 = UInt8(ascii: ","), skippedRecords: Int = 0, nullText: String? = "") {
        self.separator = separator
        self.skippedRecords = skippedRecords
        self.nullText = nullText
    }
}

/// What ``Database/importDelimited(from:path:into:options:)`` did.
public struct ImportSummary: Sendable, Equatable {
    /// The rows inserted.
    public var rowCount: Int
    /// Whether the table was created from the header row.
    public var createdTable: Bool
}
