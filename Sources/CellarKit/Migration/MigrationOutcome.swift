/// What applying (or rolling back) one migration did.
public struct MigrationOutcome: Sendable {
    /// The migration.
    public let migration: Migration
    /// Whether another process had already done it, so this run skipped it.
    public let wasSkipped: Bool
    /// Wall time, in milliseconds.
    public let durationMilliseconds: Double
    /// How many statements of the section ran.
    public let statementCount: Int
    /// Rows inserted, updated or deleted by the section (`sqlite3_total_changes`).
    public let changedRows: Int
    /// Schema objects the section created, dropped or redefined (collected by ``Migrator/plan(_:)`` only).
    public let schemaChanges: SchemaChanges?
    /// Tables whose row count the section changed, with the counts before and after (nil: the table
    /// did not exist); collected by ``Migrator/plan(_:)`` only.
    package var rowCountChanges: [(table: String, before: Int?, after: Int?)] = []

    /// An outcome from its parts, for a migrator running on another engine (a dqlite cluster).
    package init(
        migration: Migration, wasSkipped: Bool, durationMilliseconds: Double, statementCount: Int, changedRows: Int,
        schemaChanges: SchemaChanges?
    ) {
        self.migration = migration
        self.wasSkipped = wasSkipped
        self.durationMilliseconds = durationMilliseconds
        self.statementCount = statementCount
        self.changedRows = changedRows
        self.schemaChanges = schemaChanges
    }
}
