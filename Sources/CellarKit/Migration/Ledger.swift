/// The version tables `cellar_migrations` and `cellar_seeds`: creating, reading and writing them.
package enum Ledger {
    package static let createMigrations = """
        CREATE TABLE IF NOT EXISTS cellar_migrations (
          version     INTEGER PRIMARY KEY,
          name        TEXT    NOT NULL,
          checksum    TEXT    NOT NULL,
          applied_at  TEXT    NOT NULL,
          duration_ms INTEGER NOT NULL
        )
        """

    package static let createSeeds = """
        CREATE TABLE IF NOT EXISTS cellar_seeds (
          name       TEXT PRIMARY KEY,
          checksum   TEXT NOT NULL,
          applied_at TEXT NOT NULL
        )
        """

    /// Whether the database has a table called `name` (without creating anything).
    static func hasTable(_ name: String, in database: Database) throws -> Bool {
        try database.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", [name]) != .integer(0)
    }

    /// Every applied migration, by version; empty when the table does not exist yet.
    static func appliedMigrations(in database: Database) throws -> [AppliedMigration] {
        guard try hasTable("cellar_migrations", in: database) else { return [] }
        return try database.query(
            "SELECT version, name, checksum, applied_at, duration_ms FROM cellar_migrations ORDER BY version"
        ).map { row in
            AppliedMigration(
                version: row[0].ledgerInteger, name: row[1].ledgerText, checksum: row[2].ledgerText, appliedAt: row[3].ledgerText,
                durationMilliseconds: row[4].ledgerInteger)
        }
    }

    /// Whether `version` is recorded, read inside the caller's transaction.
    static func isApplied(_ version: Int64, in database: Database) throws -> Bool {
        try database.scalar("SELECT count(*) FROM cellar_migrations WHERE version = ?", [version]) != .integer(0)
    }

    static func record(_ migration: Migration, durationMilliseconds: Int64, in database: Database) throws {
        try database.execute(
            "INSERT INTO cellar_migrations (version, name, checksum, applied_at, duration_ms) VALUES (?, ?, ?, ?, ?)",
            [migration.version, migration.name, migration.checksum, WallClock.utcTimestamp(), durationMilliseconds])
    }

    static func remove(_ version: Int64, in database: Database) throws {
        try database.execute("DELETE FROM cellar_migrations WHERE version = ?", [version])
    }

    // MARK: - Seeds

    /// Every applied seed, by name; empty when the table does not exist yet.
    static func appliedSeeds(in database: Database) throws -> [String: (checksum: String, appliedAt: String)] {
        guard try hasTable("cellar_seeds", in: database) else { return [:] }
        var result: [String: (checksum: String, appliedAt: String)] = [:]
        for row in try database.query("SELECT name, checksum, applied_at FROM cellar_seeds") {
            result[row[0].ledgerText] = (row[1].ledgerText, row[2].ledgerText)
        }
        return result
    }

    static func recordSeed(name: String, checksum: String, in database: Database) throws {
        try database.execute(
            """
            INSERT INTO cellar_seeds (name, checksum, applied_at) VALUES (?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, applied_at = excluded.applied_at
            """,
            [name, checksum, WallClock.utcTimestamp()])
    }
}

extension Value {
    /// The value as an integer (0 when it is not one), for columns the ledger declares INTEGER NOT NULL.
    var ledgerInteger: Int64 {
        switch self {
        case .integer(let integer): integer
        case .real(let real): Int64(exactly: real.rounded()) ?? 0
        case .text(let text): Int64(text) ?? 0
        case .null, .blob: 0
        }
    }

    /// The value as text (empty for NULL), for columns the ledger declares TEXT NOT NULL.
    var ledgerText: String {
        switch self {
        case .text(let text): text
        case .integer(let integer): String(integer)
        case .real(let real): String(real)
        case .null: ""
        case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }
}
