/// What the migrator tells its observer while it works; `Sendable`, so an observer can forward it to
/// the main actor (a progress view).
public enum MigrationEvent: Sendable {
    /// A migration is about to start (or to be rolled back).
    case started(Migration)
    /// A migration is still running after `elapsedMilliseconds` (reported about four times a second).
    case progress(Migration, elapsedMilliseconds: Double)
    /// A migration finished and its transaction committed.
    case finished(MigrationOutcome)
    /// A section with comments but no statement is about to run: a no-op that only records (or, for a
    /// down section, deletes) the ledger row.
    case emptySection(Migration, isDown: Bool)
    /// Foreign-key violations that existed before the migration ran and still exist (not a failure).
    case foreignKeyWarning(Migration, [ForeignKeyViolation])
}
