/// The ledger another migration tool keeps in the database: which tool, its table, and the versions it
/// records as applied. Found only where `cellar_migrations` is absent, so that a project moving to
/// cellar never runs a migration a second time that the other tool already applied.
public struct OtherToolLedger: Sendable, Equatable {
    /// A migration tool whose ledger cellar reads.
    public enum Tool: String, Sendable, CaseIterable {
        case dbmate, goose
        case golangMigrate = "golang-migrate"
        case sqlMigrate = "sql-migrate"
        case diesel, sqlx
    }

    /// The tool that wrote it.
    public let tool: Tool
    /// Its table in the main schema.
    public let table: String
    /// Every version it records as applied, ascending. golang-migrate keeps only the newest one.
    public let versions: [Int64]
    /// The version a failed migration left the ledger at (golang-migrate's `dirty`, sqlx's
    /// `success = false`), or nil when the ledger is clean.
    public let dirtyVersion: Int64?

    /// Whether the ledger's newest version stands for every version up to it (golang-migrate records
    /// one row: the version the database is at).
    public var coversEarlierVersions: Bool { tool == .golangMigrate }

    /// The tables the six tools create.
    static let tableNames = [
        "schema_migrations", "goose_db_version", "gorp_migrations", "__diesel_schema_migrations", "_sqlx_migrations",
    ]

    /// The other tool's ledger in the main schema of `database`, or nil when there is none or, unless
    /// `evenBesideCellars`, when `cellar_migrations` exists (cellar's own ledger is then the record).
    /// Which tables exist and their columns come from `schema` (fresh from the database when nil).
    ///
    /// - Throws: ``SQLiteError`` when the database cannot be read.
    static func find(
        in database: any SQLConnection, schema: LedgerSchema? = nil, evenBesideCellars: Bool = false
    ) throws -> OtherToolLedger? {
        let schema = try schema ?? LedgerSchema.read(in: database)
        let found = tableNames.filter(schema.hasTable)
        guard !found.isEmpty else { return nil }
        if !evenBesideCellars, schema.hasTable("cellar_migrations") { return nil }
        for table in found {
            if let ledger = try read(table, columns: schema.loweredColumns(of: table), in: database) { return ledger }
        }
        return nil
    }

    /// Reads `table`, whose lowered column names are `columns`, as the ledger of the tool whose shape it
    /// has; nil when its columns fit none.
    private static func read(_ table: String, columns: Set<String>, in database: any SQLConnection) throws
        -> OtherToolLedger?
    {
        let quoted = "main.\"\(table)\""
        switch table {
        case "schema_migrations" where columns.isSuperset(of: ["version", "dirty"]):
            let rows = try database.query("SELECT version, dirty FROM \(quoted)")
            let versions = rows.compactMap { version(of: $0[0]) }
            let dirty = rows.first { $0[1].isTrue }.flatMap { version(of: $0[0]) }
            return OtherToolLedger(tool: .golangMigrate, table: table, versions: versions.sorted(), dirtyVersion: dirty)
        case "schema_migrations" where columns.contains("version"):
            return try simple(.dbmate, table, sql: "SELECT version FROM \(quoted)", in: database)
        case "goose_db_version" where columns.isSuperset(of: ["version_id", "is_applied", "id"]):
            // goose records each apply (and, before v3, each rollback) as a row; a version is applied when
            // its newest row says so. Version 0 is the row goose writes when it creates the table.
            let sql = """
                SELECT version_id FROM \(quoted) AS row
                WHERE is_applied AND version_id <> 0
                  AND id = (SELECT max(id) FROM \(quoted) WHERE version_id = row.version_id)
                """
            return try simple(.goose, table, sql: sql, in: database)
        case "gorp_migrations" where columns.contains("id"):
            return try simple(.sqlMigrate, table, sql: "SELECT id FROM \(quoted)", in: database)
        case "__diesel_schema_migrations" where columns.contains("version"):
            return try simple(.diesel, table, sql: "SELECT version FROM \(quoted)", in: database)
        case "_sqlx_migrations" where columns.isSuperset(of: ["version", "success"]):
            let rows = try database.query("SELECT version, success FROM \(quoted)")
            let dirty = rows.first { !$0[1].isTrue }.flatMap { version(of: $0[0]) }
            let versions = rows.filter { $0[1].isTrue }.compactMap { version(of: $0[0]) }
            return OtherToolLedger(tool: .sqlx, table: table, versions: versions.sorted(), dirtyVersion: dirty)
        default:
            return nil
        }
    }

    private static func simple(_ tool: Tool, _ table: String, sql: String, in database: any SQLConnection) throws
        -> OtherToolLedger
    {
        let versions = try database.query(sql).compactMap { version(of: $0[0]) }
        return OtherToolLedger(tool: tool, table: table, versions: Array(Set(versions)).sorted(), dirtyVersion: nil)
    }

    /// The version a ledger value names: an integer, or the digits a text starts with (dbmate's
    /// `20261129120000`, sql-migrate's file name `3_add_rating.sql`, diesel's `20261129120000`).
    static func version(of value: Value) -> Int64? {
        switch value {
        case .integer(let integer): return integer > 0 ? integer : nil
        case .text(let text):
            let digits = text.utf8.prefix { (0x30...0x39).contains($0) }
            guard !digits.isEmpty, let version = Int64(String(decoding: digits, as: UTF8.self)), version > 0 else {
                return nil
            }
            return version
        case .real(let real): return Int64(exactly: real).flatMap { $0 > 0 ? $0 : nil }
        case .null, .blob: return nil
        }
    }

    /// The versions among `versions` this ledger records as applied.
    public func records(_ version: Int64) -> Bool {
        if coversEarlierVersions { return version <= (versions.last ?? 0) }
        return versions.contains(version)
    }
}

extension Value {
    /// Whether a boolean column holds true (SQLite stores booleans as integers; some drivers as text).
    fileprivate var isTrue: Bool {
        switch self {
        case .integer(let integer): integer != 0
        case .real(let real): real != 0
        case .text(let text): ["1", "t", "true"].contains(text.lowercased())
        case .null, .blob: false
        }
    }
}
