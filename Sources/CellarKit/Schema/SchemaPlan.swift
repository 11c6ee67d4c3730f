/// The SQL that turns one schema into another, as ``SchemaPlanner`` wrote and proved it: a list of
/// changes, each a commented block of statements, to run as one migration (inside one transaction,
/// with foreign keys off, as cellar's migrator runs a migration).
public struct SchemaPlan: Sendable, Equatable {
    /// One change to one object.
    public struct Change: Sendable, Equatable {
        /// What kind of change it is.
        public enum Kind: String, Sendable, Equatable {
            /// A new table, index, view or trigger.
            case create
            /// An object that the desired schema no longer has.
            case drop
            /// An index, view or trigger whose definition changed: dropped, then created again later.
            case redefine
            /// A table renamed with `ALTER TABLE … RENAME TO`.
            case renameTable = "rename-table"
            /// A column renamed with `ALTER TABLE … RENAME COLUMN`.
            case renameColumn = "rename-column"
            /// Columns added or dropped with `ALTER TABLE … ADD/DROP COLUMN`.
            case alter
            /// The 12-step table rebuild (<https://sqlite.org/lang_altertable.html#otheralter>).
            case rebuild
        }

        /// What kind of change it is.
        public let kind: Kind
        /// The object it is about: `table wines`.
        public let object: String
        /// Why, in one line (the block's comment without `-- `).
        public let summary: String
        /// The statements that carry it out, each without its terminating `;`.
        public let statements: [String]
    }

    /// The changes, in the order they run.
    public let changes: [Change]
    /// The tables the plan drops, with their rows.
    public let droppedTables: [String]
    /// The columns (`wines.rating`) the plan drops from tables it keeps, with their values.
    public let droppedColumns: [String]

    /// A plan of `changes` that drops `droppedTables` and `droppedColumns`.
    init(changes: [Change], droppedTables: [String] = [], droppedColumns: [String] = []) {
        self.changes = changes
        self.droppedTables = droppedTables
        self.droppedColumns = droppedColumns
    }
    /// Whether a change rebuilds or drops a table, so that the plan relies on foreign keys being off.
    public var needsForeignKeysOff: Bool {
        changes.contains { $0.kind == .rebuild || ($0.kind == .drop && $0.object.hasPrefix("table ")) }
    }
    /// Whether there is nothing to do.
    public var isEmpty: Bool { changes.isEmpty }

    /// The plan as a migration's text: each block its comment, then its statements, each ending with
    /// `;`; empty when there is nothing to do.
    public var sql: String {
        guard !changes.isEmpty else { return "" }
        var text = ""
        if needsForeignKeysOff {
            text +=
                "-- Relies on foreign keys being off while it runs (cellar migrate turns them off outside the transaction\n"
                + "-- and runs PRAGMA foreign_key_check before it commits), so no table rebuilt or dropped here cascades.\n\n"
        }
        text += changes.map { change in
            "-- \(change.summary)\n" + change.statements.map { $0 + ";\n" }.joined()
        }.joined(separator: "\n")
        return text
    }
}
