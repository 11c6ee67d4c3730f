internal import CSQLite
import Glibc
import Synchronization

/// The version tables `main.cellar_migrations` and `main.cellar_seeds`: creating, checking, reading and
/// writing them.
///
/// Every statement names the `main` schema, so that a `TEMP` table of the same name, which SQLite would
/// otherwise find first (<https://sqlite.org/lang_naming.html>), can never stand in for the ledger.
package enum Ledger {
    package static let createMigrations = """
        CREATE TABLE IF NOT EXISTS main.cellar_migrations (
          version     INTEGER PRIMARY KEY,
          name        TEXT    NOT NULL,
          checksum    TEXT    NOT NULL,
          applied_at  TEXT    NOT NULL,
          duration_ms INTEGER NOT NULL,
          kind        TEXT    NOT NULL DEFAULT 'applied'
        )
        """

    /// ``createMigrations`` as SQLite keeps it in `sqlite_schema` once it has run: SQLite drops `IF NOT
    /// EXISTS` and the schema's name and keeps the rest as written.
    package static let createdMigrationsText =
        "CREATE TABLE cellar_migrations" + createMigrations.dropFirst("CREATE TABLE IF NOT EXISTS main.cellar_migrations".count)

    package static let createSeeds = """
        CREATE TABLE IF NOT EXISTS main.cellar_seeds (
          name       TEXT PRIMARY KEY,
          checksum   TEXT NOT NULL,
          applied_at TEXT NOT NULL
        )
        """

    /// A condition on `sqlite_schema`'s rows that leaves out cellar's two ledgers, whatever the ASCII
    /// case of their names (SQLite matches names so): the queries that read the user's schema use it.
    static let notALedger = "name COLLATE NOCASE NOT IN ('cellar_migrations', 'cellar_seeds')"

    // MARK: - Migrations

    /// Creates `cellar_migrations`, or checks the one there and adds the `kind` column that ledgers made
    /// before it lack. Call inside the write transaction that then records or removes rows.
    ///
    /// - Returns: the ledger's definition as it now stands, to pass to the statements below that
    ///   check it as they run instead of checking the shape again.
    /// - Throws: ``MigrationError/foreignLedger(table:problem:)`` for a table of another shape.
    @discardableResult
    static func prepareMigrations(in database: any SQLConnection) throws -> Definition? {
        let (shape, definition) = try LedgerShape.migrationsAndDefinition(in: database)
        switch shape {
        case .absent: try database.execute(createMigrations)
        case .withoutKind:
            try database.execute("ALTER TABLE main.cellar_migrations ADD COLUMN kind TEXT NOT NULL DEFAULT 'applied'")
        case .current: return definition
        }
        let row = try database.query(
            "SELECT rowid, sql FROM main.sqlite_schema WHERE type = 'table' AND name = 'cellar_migrations' COLLATE NOCASE"
        ).first
        return row.map { Definition(rowid: $0[0].ledgerInteger, sql: $0[1].ledgerText) }
    }

    /// Runs a statement that relies on the ledger's definition: nil when it could not run against the
    /// ledger as it is now (it names a column or table the ledger no longer has), so that the caller
    /// checks the shape, which says what is wrong. Any other failure is thrown: it says nothing about
    /// the shape and may have ended the transaction.
    private static func guarded<Result>(_ body: () throws -> Result) throws -> Result? {
        do {
            return try body()
        } catch let error as SQLiteError where error.code == 1 {
            return nil
        }
    }

    /// The `kind` of the row a `transaction:false` migration writes before its first statement runs (its
    /// claim, whose `applied_at` is the time it started) and turns into `applied` after its last; left
    /// behind only when its process stopped partway.
    static let unfinishedKind = "unfinished"
    /// The `kind` of the rows a ``Checkpoint`` records when a fresh database is built from it.
    static let checkpointKind = "checkpoint"

    /// Every applied migration, by version (with the unfinished claims of `transaction:false` migrations
    /// only when `includingUnfinished`); empty when the table does not exist yet. The ledger's shape is
    /// read from `schema` (fresh from the database when nil).
    ///
    /// - Throws: ``MigrationError/foreignLedger(table:problem:)`` for a table of another shape.
    static func appliedMigrations(
        in database: any SQLConnection, schema: LedgerSchema? = nil, includingUnfinished: Bool = false
    ) throws -> [AppliedMigration] {
        let shape = try LedgerShape.migrations(in: database, schema: schema)
        guard shape != .absent else { return [] }
        let kind = shape == .current ? "kind" : "'applied'"
        return try database.query(
            "SELECT version, name, checksum, applied_at, duration_ms, \(kind) FROM main.cellar_migrations ORDER BY version"
        ).map { row in
            AppliedMigration(
                version: row[0].ledgerInteger, name: row[1].ledgerText, checksum: row[2].ledgerText, appliedAt: row[3].ledgerText,
                durationMilliseconds: row[4].ledgerInteger, isBaseline: row[5].ledgerText == "baseline",
                isUnfinished: row[5].ledgerText == unfinishedKind, isCheckpoint: row[5].ledgerText == checkpointKind)
        }.filter { includingUnfinished || !$0.isUnfinished }
    }

    /// The highest version ``appliedMigrations(in:includingUnfinished:)`` lists (unfinished claims left
    /// out), or 0 when it lists none: read as one value, without decoding every row. The ledger's shape
    /// is read from `schema` (fresh from the database when nil).
    ///
    /// - Throws: ``MigrationError/foreignLedger(table:problem:)`` for a table of another shape.
    static func newestAppliedVersion(in database: any SQLConnection, schema: LedgerSchema? = nil) throws -> Int64 {
        let shape = try LedgerShape.migrations(in: database, schema: schema)
        guard shape != .absent else { return 0 }
        let unfinished = shape == .current ? " WHERE kind IS NOT ?" : ""
        let arguments: [any ValueConvertible] = shape == .current ? [unfinishedKind] : []
        return try database.scalar("SELECT max(version) FROM main.cellar_migrations\(unfinished)", arguments)?.ledgerInteger
            ?? 0
    }

    /// The `kind` of `version`'s row (`applied`, `baseline`, `unfinished`), or nil when it has none; read
    /// inside the caller's transaction once the ledger is prepared.
    static func kind(of version: Int64, in database: any SQLConnection) throws -> String? {
        try database.scalar("SELECT kind FROM main.cellar_migrations WHERE version = ?", [version]).map(\.ledgerText)
    }

    /// Writes `migration`'s row of `kind` (``unfinishedKind`` for a claim) unless its version has one,
    /// inside the caller's write transaction, having made sure the ledger is cellar's: with
    /// `definition` known and still held (``Definition/holds(in:)``), the row is written at once (on an
    /// engine whose requests are round trips, by one statement that compares the definition itself);
    /// otherwise, or when the version has a row, the shape is checked and prepared
    /// (``prepareMigrations(in:)``), `definition` set to what it found, and the row looked up and written.
    ///
    /// - Returns: false when the version has a row already (nothing was written).
    /// - Throws: ``MigrationError/foreignLedger(table:problem:)`` for a table of another shape.
    static func recordUnlessPresent(
        _ migration: Migration, kind: String, durationMilliseconds: Int64, definition: inout Definition?,
        in database: any SQLConnection
    ) throws -> Bool {
        let row = row(of: migration, durationMilliseconds: durationMilliseconds, kind: kind)
        if let known = definition {
            let before = try database.totalChanges
            let ran: Void? = try guarded {
                if database.requestsAreRoundTrips {
                    try database.execute(
                        """
                        INSERT INTO main.cellar_migrations (version, name, checksum, applied_at, duration_ms, kind)
                        SELECT ?, ?, ?, ?, ?, ? WHERE \(definitionHoldsSQL)
                        AND NOT EXISTS (SELECT 1 FROM main.cellar_migrations WHERE version = ?)
                        """, row + [known.rowid, known.sql, migration.version])
                } else if try known.holds(in: database) {
                    if known.isCellars {
                        do {
                            try database.executeReused(insertCellarsRow, row)
                        } catch let error as SQLiteError where error.code == SQLITE_CONSTRAINT | 6 << 8 {
                            // SQLITE_CONSTRAINT_PRIMARYKEY (a macro Swift does not import): the version has a row;
                            // nothing was written, and the lookup below says whose.
                        }
                    } else {
                        try database.executeReused(insertRowUnlessPresent, row)
                    }
                }
            }
            if ran != nil, try database.totalChanges > before { return true }
        }
        definition = try prepareMigrations(in: database)
        guard try Ledger.kind(of: migration.version, in: database) == nil else { return false }
        try database.execute(insertRow, row)
        return true
    }

    /// Turns the claim of `migration` into an applied row, with the current checksum.
    ///
    /// - Parameter isThisRunsClaim: whether this run wrote the claim, from the same `migration`: its
    ///   checksum is the row's already, and a statement that leaves it out compiles in fewer instructions
    ///   (a run compiles it again after each migration that changes the schema).
    static func finish(
        _ migration: Migration, durationMilliseconds: Int64, isThisRunsClaim: Bool = false, in database: any SQLConnection
    ) throws {
        if isThisRunsClaim {
            try database.executeReused(
                "UPDATE main.cellar_migrations SET kind = 'applied', applied_at = ?, duration_ms = ? WHERE version = ?",
                [timestamp(), durationMilliseconds, migration.version])
            return
        }
        try database.executeReused(
            """
            UPDATE main.cellar_migrations SET kind = 'applied', checksum = ?, applied_at = ?, duration_ms = ?
            WHERE version = ?
            """,
            [migration.checksum, timestamp(), durationMilliseconds, migration.version])
    }

    /// Whether `version` is recorded, read inside the caller's transaction once the ledger is prepared.
    static func isApplied(_ version: Int64, in database: any SQLConnection) throws -> Bool {
        try database.scalar("SELECT count(*) FROM main.cellar_migrations WHERE version = ?", [version])
            != .integer(0)
    }

    /// What the migrator reads inside a migration's transaction before it runs the migration.
    struct Lookup {
        /// Whether the migration's version is recorded.
        var isApplied: Bool
        /// False only when no table declares a foreign key, so that no violation can exist (a local
        /// engine does not ask: its `foreign_key_check` costs no more than the question).
        var mayHaveForeignKeys: Bool
    }

    /// Whether `version` is recorded and, on a remote engine in the same request, whether any table
    /// may declare a foreign key; read inside the caller's write transaction, having made sure the
    /// ledger is cellar's as ``recordUnlessPresent(_:kind:durationMilliseconds:definition:in:)`` does
    /// (on a remote engine, comparing the definition in the same request).
    ///
    /// - Throws: ``MigrationError/foreignLedger(table:problem:)`` for a table of another shape.
    static func lookUp(_ version: Int64, definition: inout Definition?, in database: any SQLConnection) throws -> Lookup {
        if let known = definition {
            if database.requestsAreRoundTrips {
                if let (lookup, holds) = try guarded({ try lookUp(version, holding: known, in: database) }), holds {
                    return lookup
                }
            } else if try known.holds(in: database) {
                if known.isCellars, let local = database.localDatabase {
                    return Lookup(isApplied: try hasRow(version, in: local), mayHaveForeignKeys: true)
                }
                if let lookup = try guarded({ try lookUp(version, holding: nil, in: database) }) { return lookup.lookup }
            }
        }
        definition = try prepareMigrations(in: database)
        return try lookUp(version, holding: nil, in: database).lookup
    }

    /// The lookup itself and, with `definition` (on a remote engine), whether the ledger is still
    /// defined so (true without one).
    private static func lookUp(_ version: Int64, holding definition: Definition?, in database: any SQLConnection) throws
        -> (lookup: Lookup, holds: Bool)
    {
        guard database.requestsAreRoundTrips else {
            return (Lookup(isApplied: try isApplied(version, in: database), mayHaveForeignKeys: true), true)
        }
        let holds = definition == nil ? "" : ", \(definitionHoldsSQL)"
        let row = try database.query(
            "SELECT EXISTS (SELECT 1 FROM main.cellar_migrations WHERE version = ?), \(ForeignKeyCheck.anyDeclarationSQL)\(holds)",
            [version] + (definition.map { [$0.rowid, $0.sql] } ?? []))[0]
        let lookup = Lookup(isApplied: row[0] != .integer(0), mayHaveForeignKeys: row[1] != .integer(0))
        return (lookup, definition == nil || row.values.last == .integer(1))
    }

    /// Records `migration` as `kind`: `applied`, `baseline` (written by `baseline`, never undone by
    /// `rollback`) or `adopted` (applied by another tool, read from its ledger).
    static func record(
        _ migration: Migration, durationMilliseconds: Int64, kind: String = "applied", in database: any SQLConnection
    ) throws {
        try database.execute(insertRow, row(of: migration, durationMilliseconds: durationMilliseconds, kind: kind))
    }

    /// Records the ledger rows of `checkpoint`, of kind `checkpoint`, inside the caller's transaction; the
    /// row of its version carries the run's duration, the others 0.
    static func record(_ checkpoint: Checkpoint, durationMilliseconds: Int64, in database: any SQLConnection) throws {
        let now = WallClock.utcTimestamp()
        for entry in checkpoint.entries {
            try database.execute(
                insertRow,
                [
                    entry.version, entry.name, entry.checksum, now,
                    entry.version == checkpoint.version ? durationMilliseconds : 0, checkpointKind,
                ])
        }
    }

    /// Records `migration` and commits the open transaction with it, in one step where the engine can.
    static func recordAndCommit(_ migration: Migration, durationMilliseconds: Int64, in database: any SQLConnection) throws {
        try database.executeAndCommit(
            insertRow, row(of: migration, durationMilliseconds: durationMilliseconds, kind: "applied"))
    }

    private static let insertRow = """
        INSERT INTO main.cellar_migrations (version, name, checksum, applied_at, duration_ms, kind)
        VALUES (?, ?, ?, ?, ?, ?)
        """

    private static let insertRowUnlessPresent = insertRow + " ON CONFLICT (version) DO NOTHING"

    /// ``insertRow`` for a ledger of cellar's own definition (``Definition/isCellars``), whose columns
    /// are in this order: without the column list (and the upsert clause, a claim catching the key's
    /// conflict instead), SQLite compiles it in two thirds of the instructions, which a run pays
    /// again for each migration that changes the schema.
    private static let insertCellarsRow = "INSERT INTO main.cellar_migrations VALUES (?, ?, ?, ?, ?, ?)"

    /// Whether a ledger of cellar's own definition (``Definition/isCellars``, held: checked inside the
    /// caller's transaction) has a row for `version`, read with SQLite's incremental blob I/O
    /// (<https://sqlite.org/c3ref/blob_open.html>), which compiles no SQL: `version` is the table's
    /// rowid, and `name`, declared `TEXT NOT NULL`, holds text (or a blob) in every row, which opens,
    /// so that opening it fails only where there is no such row.
    private static func hasRow(_ version: Int64, in database: Database) throws -> Bool {
        let connection = try database.openHandle()
        var blob: OpaquePointer?
        let code = sqlite3_blob_open(connection, "main", "cellar_migrations", "name", version, 0, &blob)
        sqlite3_blob_close(blob)
        if code == SQLITE_OK { return true }
        if code & 0xFF == SQLITE_ERROR { return false }
        throw SQLiteError.read(from: connection, code: code)
    }

    /// The second of the timestamp formatted last, and its text.
    private static let lastTimestamp = Mutex<(second: Int, text: String)>((-1, ""))

    /// ``WallClock/utcTimestamp()`` for a ledger row, formatted once per second of the clock: a run
    /// writes one or two rows per migration, most of them within the same second, and formatting one
    /// cost as much as binding the row.
    static func timestamp() -> String {
        let second = time(nil)
        return lastTimestamp.withLock { last in
            if last.second != second { last = (second, WallClock.utcTimestamp(at: second)) }
            return last.text
        }
    }

    private static func row(of migration: Migration, durationMilliseconds: Int64, kind: String) -> [any ValueConvertible] {
        [migration.version, migration.name, migration.checksum, timestamp(), durationMilliseconds, kind]
    }

    static func updateChecksum(_ migration: Migration, in database: any SQLConnection) throws {
        try database.execute(
            "UPDATE main.cellar_migrations SET checksum = ? WHERE version = ?", [migration.checksum, migration.version])
    }

    static func remove(_ version: Int64, in database: any SQLConnection) throws {
        try database.execute("DELETE FROM main.cellar_migrations WHERE version = ?", [version])
    }

    // MARK: - Seeds

    /// Creates `cellar_seeds`, or checks the one there.
    ///
    /// - Throws: ``MigrationError/foreignLedger(table:problem:)`` for a table of another shape.
    static func prepareSeeds(in database: any SQLConnection) throws {
        if try LedgerShape.seeds(in: database) == .absent { try database.execute(createSeeds) }
    }

    /// Every applied seed, by name; empty when the table does not exist yet.
    static func appliedSeeds(in database: any SQLConnection) throws -> [String: (checksum: String, appliedAt: String)] {
        guard try LedgerShape.seeds(in: database) != .absent else { return [:] }
        var result: [String: (checksum: String, appliedAt: String)] = [:]
        for row in try database.query("SELECT name, checksum, applied_at FROM main.cellar_seeds") {
            result[row[0].ledgerText] = (row[1].ledgerText, row[2].ledgerText)
        }
        return result
    }

    static func recordSeed(name: String, checksum: String, in database: any SQLConnection) throws {
        try database.execute(
            """
            INSERT INTO main.cellar_seeds (name, checksum, applied_at) VALUES (?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, applied_at = excluded.applied_at
            """,
            [name, checksum, WallClock.utcTimestamp()])
    }

    /// Forgets every seed (their data went with the tables a full rollback dropped).
    static func removeAllSeeds(in database: any SQLConnection) throws {
        guard try LedgerShape.seeds(in: database) != .absent else { return }
        try database.execute("DELETE FROM main.cellar_seeds")
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
