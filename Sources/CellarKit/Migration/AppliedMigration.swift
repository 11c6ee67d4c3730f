/// One row of `cellar_migrations`: a migration recorded as applied.
public struct AppliedMigration: Sendable, Hashable {
    /// The version.
    public let version: Int64
    /// The name, as the file name had it when applied.
    public let name: String
    /// The checksum of its up section when applied (or accepted).
    public let checksum: String
    /// When it was applied, UTC ISO 8601.
    public let appliedAt: String
    /// How long it took, in milliseconds.
    public let durationMilliseconds: Int64
    /// Whether `baseline` recorded it without running it (`kind = 'baseline'`): `rollback` never undoes it.
    public let isBaseline: Bool
    /// Whether the row is the claim of a `transaction:false` migration that has not finished
    /// (`kind = 'unfinished'`): it is still running in another process, or that process stopped partway.
    public let isUnfinished: Bool
    /// Whether a ``Checkpoint`` recorded it (`kind = 'checkpoint'`): the database was built from the
    /// checkpoint, so `rollback` never goes below it.
    public var isCheckpoint: Bool = false
}
