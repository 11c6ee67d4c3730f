/// What `main.sqlite_schema` holds under the names of the ledgers cellar checks — its own
/// `cellar_migrations` and `cellar_seeds` and the tables other migration tools keep (see
/// ``OtherToolLedger``) — with each table's columns, read in one statement.
///
/// ``LedgerShape`` and ``OtherToolLedger`` read their facts from it, so that the checks a run makes
/// before it writes (the ledger's shape, another tool's ledger) cost one request to a remote engine
/// instead of two or three per check. A ``Migrator`` keeps the one it read outside a transaction for
/// the next such check of the same run until the run writes (see ``Migrator/ledgerSchema()``); inside
/// a transaction every check reads it again.
struct LedgerSchema {
    /// One row of `main.sqlite_schema` under one of the names.
    struct Entry {
        /// `table`, `index`, `view` or `trigger`.
        let type: Value
        let rowid: Int64
        let sql: String
        /// A table's columns in order (empty for anything else).
        var columns: [Column] = []
    }

    /// A column as `pragma_table_info` describes it.
    struct Column {
        /// Its name as declared.
        let name: String
        /// Its name lowered by SQLite's `lower()` (ASCII letters only).
        let lowered: String
        /// Its declared type in upper case (empty without one).
        let type: String
        /// Whether it is (part of) the primary key.
        let isKey: Bool
    }

    /// The names read: cellar's two ledgers and the other tools' tables.
    static let names = ["cellar_migrations", "cellar_seeds"] + OtherToolLedger.tableNames

    /// The rows under each name, in rowid order (the order a scan of `sqlite_schema` meets them); keyed by
    /// the name lowered, since SQLite's names match whatever the case of their ASCII letters.
    private(set) var entries: [String: [Entry]] = [:]

    /// Reads the rows of every one of ``names`` and the columns of those that are tables.
    ///
    /// - Throws: ``SQLiteError`` when the database cannot be read.
    static func read(in database: any SQLConnection) throws -> LedgerSchema {
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let rows = try database.query(
            """
            SELECT lower(s.name), s.type, s.rowid, s.sql, c.name, lower(c.name), upper(c.type), c.pk
            FROM main.sqlite_schema AS s
            LEFT JOIN pragma_table_info(CASE s.type WHEN 'table' THEN s.name END, 'main') AS c
            WHERE s.name COLLATE NOCASE IN (\(placeholders)) ORDER BY s.rowid, c.cid
            """, names)
        var schema = LedgerSchema()
        var lastRowID: Int64?
        for row in rows {
            let name = row[0].ledgerText
            let rowid = row[2].ledgerInteger
            if rowid != lastRowID {
                schema.entries[name, default: []].append(Entry(type: row[1], rowid: rowid, sql: row[3].ledgerText))
                lastRowID = rowid
            }
            guard row[4] != .null, var last = schema.entries[name]?.popLast() else { continue }
            last.columns.append(
                Column(
                    name: row[4].ledgerText, lowered: row[5].ledgerText, type: row[6].ledgerText, isKey: row[7].ledgerInteger == 1
                ))
            schema.entries[name]?.append(last)
        }
        return schema
    }

    /// The first row under `name` (any type), or nil when there is none.
    func entry(_ name: String) -> Entry? {
        entries[name]?.first
    }

    /// Whether `name` is a table.
    func hasTable(_ name: String) -> Bool {
        entries[name]?.contains { $0.type == .text("table") } ?? false
    }

    /// The lowered names of table `name`'s columns (empty when it is no table).
    func loweredColumns(of name: String) -> Set<String> {
        Set(entries[name]?.first { $0.type == .text("table") }?.columns.map(\.lowered) ?? [])
    }
}
