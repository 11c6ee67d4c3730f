/// What `cellar lint` checks, each rule with the severity it reports at.
package enum LintRule: String, CaseIterable, Sendable, Comparable {
    /// An index, trigger or view of a table that still exists afterwards is gone, or a rebuilt
    /// `AUTOINCREMENT` table lost its `sqlite_sequence` row, without the migration dropping it by name.
    case lostObject = "lost-object"
    /// A table or column is gone, or a `DELETE`/`UPDATE` without `WHERE` touches every row.
    case destructive
    /// `PRAGMA foreign_keys` turned on before a drop or delete that cascades to other tables.
    case foreignKeysOn = "fk-on"
    /// A pragma that cannot change inside a transaction, set in a transactional migration.
    case pragmaNoop = "pragma-noop"
    /// A feature newer than the oldest SQLite the migrations must run on.
    case needsSQLite = "needs-sqlite"
    /// A `transaction:false` migration that changes both schema and data outside one transaction.
    case notAtomic = "not-atomic"
    /// An index built or a table rebuilt on a table of many rows (needs the database's row counts).
    case bigTable = "big-table"
    /// An error SQLite itself reports when the migration is replayed (`no such column`, …).
    case sqlite = "sqlite-error"

    /// Whether a finding of this rule fails the check, or only warns.
    package var severity: LintSeverity {
        switch self {
        case .lostObject, .foreignKeysOn, .pragmaNoop, .needsSQLite, .sqlite: .error
        case .destructive, .notAtomic, .bigTable: .warning
        }
    }

    /// One line saying what the rule finds (the SARIF rule's short description).
    package var summary: String {
        switch self {
        case .lostObject:
            "an index, trigger, view or sqlite_sequence row of a table that still exists is gone, and the migration did not drop it by name"
        case .destructive: "a table or column is gone, or a DELETE or UPDATE without WHERE touches every row of a table"
        case .foreignKeysOn:
            "PRAGMA foreign_keys is turned on before a DROP TABLE or DELETE that cascades to the rows of other tables"
        case .pragmaNoop: "a pragma that cannot change inside a transaction is set in a migration that runs in one"
        case .needsSQLite: "a feature newer than the oldest SQLite the migrations must run on"
        case .notAtomic: "a transaction:false migration changes both schema and data outside one transaction"
        case .bigTable: "an index is built or a table rebuilt on a table of more than 100,000 rows, holding the write lock"
        case .sqlite: "SQLite refuses the statement when the migration is replayed"
        }
    }

    package static func < (lhs: LintRule, rhs: LintRule) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// How much a finding weighs.
package enum LintSeverity: String, Sendable {
    /// Fails `cellar lint` (exit 1).
    case error
    /// Reported; fails only under `--strict`.
    case warning
}
