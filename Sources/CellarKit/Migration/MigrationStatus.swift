/// One line of ``Migrator/status()``.
public struct MigrationStatus: Sendable {
    /// Where a migration stands.
    public enum State: String, Sendable {
        /// Recorded, and the file's checksum matches.
        case applied
        /// Not recorded yet.
        case pending
        /// Recorded, but the file's up section changed since.
        case changed
        /// Recorded, but no file has its version.
        case missing
        /// Recorded, at or below the folder's ``Checkpoint``, and its file is gone: the checkpoint
        /// stands for it (its checksum is no longer checked).
        case squashed
        /// Claimed by a `transaction:false` run that has not finished: it is still running in another
        /// process, or that process stopped partway (its statements before that point stay done).
        case unfinished
    }

    /// The file, when there is one.
    public let migration: Migration?
    /// The ledger row, when applied.
    public let record: AppliedMigration?
    /// Where it stands.
    public let state: State
    /// The ``Checkpoint``'s row for it, when the checkpoint stands for a migration with neither a file
    /// nor a ledger row (pending on a database the checkpoint will build).
    public var checkpointEntry: Checkpoint.Entry? = nil

    /// The version.
    public var version: Int64 { migration?.version ?? record?.version ?? checkpointEntry?.version ?? 0 }
    /// The version as the file writes it, or zero-padded to four digits when the file is missing.
    /// A negative version (only a hand-written ledger row has one) keeps its sign in front: `-0005`.
    public var versionText: String {
        if let migration { return migration.versionText }
        if let checkpointEntry { return checkpointEntry.versionText }
        let digits = String(version.magnitude)
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return version < 0 ? "-" + padded : padded
    }
    /// The name from the file, or from the ledger when the file is missing.
    public var name: String { migration?.name ?? record?.name ?? checkpointEntry?.name ?? "" }
    /// The file's checksum, or the recorded one when the file is missing.
    public var checksum: String { migration?.checksum ?? record?.checksum ?? checkpointEntry?.checksum ?? "" }
}
