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
}
