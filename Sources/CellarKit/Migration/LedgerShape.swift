/// The shape of an existing ledger table, checked before cellar reads or writes it, so that a table of
/// the same name made by something else is refused instead of trusted.
enum LedgerShape: Equatable {
    /// No such table yet.
    case absent
    /// A `cellar_migrations` made before the `kind` column existed (cellar adds it when it next writes).
    case withoutKind
    /// The shape cellar creates.
    case current

    /// A column the ledger needs: its name, the type it is declared with, and whether it is the key.
    private struct Column {
        let name: String
        let type: String
        let isKey: Bool
    }

    private static let migrationColumns = [
        Column(name: "version", type: "INTEGER", isKey: true), Column(name: "name", type: "TEXT", isKey: false),
        Column(name: "checksum", type: "TEXT", isKey: false), Column(name: "applied_at", type: "TEXT", isKey: false),
        Column(name: "duration_ms", type: "INTEGER", isKey: false),
    ]

    private static let seedColumns = [
        Column(name: "name", type: "TEXT", isKey: true), Column(name: "checksum", type: "TEXT", isKey: false),
        Column(name: "applied_at", type: "TEXT", isKey: false),
    ]

    /// The shape of `main.cellar_migrations`, read from `schema` (fresh from the database when nil).
    ///
    /// - Throws: ``MigrationError/foreignLedger(table:problem:)`` naming what does not fit.
    static func migrations(in database: any SQLConnection, schema: LedgerSchema? = nil) throws -> LedgerShape {
        try migrationsAndDefinition(in: database, schema: schema).shape
    }

    /// The shape of `main.cellar_migrations` and, for a table that fits, where its definition sits in
    /// `sqlite_schema` and what it says (read in the same statement as its type and columns), read from
    /// `schema` (fresh from the database when nil).
    ///
    /// - Throws: ``MigrationError/foreignLedger(table:problem:)`` naming what does not fit.
    static func migrationsAndDefinition(in database: any SQLConnection, schema: LedgerSchema? = nil) throws -> (
        shape: LedgerShape, definition: Ledger.Definition?
    ) {
        if schema == nil, let answer = try migrationsFromDefinition(in: database) { return answer }
        let schema = try schema ?? LedgerSchema.read(in: database)
        guard let (columns, definition) = try check("cellar_migrations", against: migrationColumns, in: schema) else {
            return (.absent, nil)
        }
        guard let kind = columns["kind"] else { return (.withoutKind, definition) }
        guard kind.type == "TEXT" else {
            throw MigrationError.foreignLedger(
                table: "cellar_migrations", problem: "column kind is declared \(describe(kind.type)), not TEXT")
        }
        return (.current, definition)
    }

    /// The two answers of a fresh check that need no columns, read from the first row named
    /// `cellar_migrations` alone (one short statement, not ``LedgerSchema/read(in:)``'s join): no such
    /// row (`.absent`), or a table whose text is the one cellar creates (`.current`: its columns follow
    /// from that text, see ``Ledger/Definition``). Nil for anything else, which the full check decides.
    private static func migrationsFromDefinition(in database: any SQLConnection) throws -> (
        shape: LedgerShape, definition: Ledger.Definition?
    )? {
        let rows = try database.query(
            "SELECT type, rowid, sql FROM main.sqlite_schema WHERE name = 'cellar_migrations' COLLATE NOCASE ORDER BY rowid LIMIT 1"
        )
        guard let row = rows.first else { return (.absent, nil) }
        guard row[0] == .text("table"), row[2] == .text(Ledger.createdMigrationsText) else { return nil }
        return (.current, Ledger.Definition(rowid: row[1].ledgerInteger, sql: Ledger.createdMigrationsText))
    }

    /// The shape of `main.cellar_seeds` (`.absent` or `.current`).
    ///
    /// - Throws: ``MigrationError/foreignLedger(table:problem:)`` naming what does not fit.
    static func seeds(in database: any SQLConnection) throws -> LedgerShape {
        try check("cellar_seeds", against: seedColumns, in: LedgerSchema.read(in: database)) == nil ? .absent : .current
    }

    /// The table's columns by name and its row in `sqlite_schema`, or nil when there is no such table;
    /// throws when one of `expected` is missing or declared otherwise.
    private static func check(
        _ table: String, against expected: [Column], in schema: LedgerSchema
    ) throws -> (columns: [String: Column], definition: Ledger.Definition)? {
        guard let entry = schema.entry(table), entry.type != .null else { return nil }
        guard entry.type == .text("table") else {
            throw MigrationError.foreignLedger(table: table, problem: "it is a \(entry.type.ledgerText), not a table")
        }
        var columns: [String: Column] = [:]
        for column in entry.columns {
            // Lowered as SQLite matches column names: ASCII letters only.
            let name = column.lowered
            columns[name] = Column(name: name, type: column.type, isKey: column.isKey)
        }
        for column in expected {
            guard let found = columns[column.name] else {
                throw MigrationError.foreignLedger(table: table, problem: "it has no column \(column.name)")
            }
            guard found.type == column.type else {
                throw MigrationError.foreignLedger(
                    table: table,
                    problem: "column \(column.name) is declared \(describe(found.type)), not \(column.type)")
            }
            if column.isKey, !found.isKey || columns.values.filter(\.isKey).count != 1 {
                throw MigrationError.foreignLedger(table: table, problem: "column \(column.name) is not its PRIMARY KEY")
            }
        }
        return (columns, Ledger.Definition(rowid: entry.rowid, sql: entry.sql))
    }

    private static func describe(_ type: String) -> String {
        type.isEmpty ? "without a type" : type
    }
}
