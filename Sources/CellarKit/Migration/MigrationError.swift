/// Why the migrator or the seeder refused to run, or why a migration failed.
///
/// Errors about one file carry a ``Diagnostic`` (``diagnostic``) so that a command line can print
/// `path:line:column: error: message` with the source line.
public enum MigrationError: Error, Sendable, CustomStringConvertible {
    /// The migrations (or seeds) folder does not exist.
    case missingFolder(path: String)
    /// A `.sql` file whose name is not `<version>_<name>.sql`.
    case badFileName(path: String)
    /// Two files with one version (`0003_a.sql` and `3_b.sql`).
    case duplicateVersion(version: Int64, paths: [String])
    /// A file that cannot be read as a migration: its encoding, its markers, an empty up section.
    case invalidFile(Diagnostic)
    /// A migration whose up section is still the template `cellar new` wrote: not written yet.
    case unwritten(path: String)
    /// A table with a ledger's name (`cellar_migrations`, `cellar_seeds`) whose shape is not the
    /// ledger's; cellar neither reads nor writes it.
    case foreignLedger(table: String, problem: String)
    /// Another migration tool's ledger is in the database and `cellar_migrations` is not: the migrations
    /// it applied would read as pending and run again.
    case otherToolLedger(OtherToolLedger)
    /// Adopting another tool's ledger whose newest migration failed partway (golang-migrate's `dirty`,
    /// sqlx's `success = false`): what the database holds is not known.
    case dirtyOtherToolLedger(OtherToolLedger)
    /// Adopting with no other tool's ledger in the database.
    case noOtherToolLedger
    /// A seed file named on the command line that is not inside the seeds folder, so it has no name
    /// there to record it by.
    case seedOutsideFolder(path: String, folder: String)
    /// Pending migrations older than the newest applied one (a branch merged late).
    case outOfOrder(paths: [String], newestApplied: Int64)
    /// `--all-or-nothing` with a migration that must run outside a transaction.
    case nonTransactionalInAllOrNothing(path: String)
    /// An applied migration whose file has changed since.
    case changedAfterApply(version: Int64, path: String)
    /// A migration recorded as applied whose file is gone.
    case appliedButMissing(version: Int64, name: String)
    /// A migration to roll back that has no down section.
    case noDownSection(path: String)
    /// `rollback` was asked to undo more migrations than it may: `undoable` are applied above the newest
    /// baseline (`baseline`, when one stops it).
    case tooManySteps(requested: Int, undoable: Int, baseline: AppliedMigration?)
    /// `rollback --to` would cross a migration recorded by `baseline`, which is never undone.
    case crossesBaseline(AppliedMigration)
    /// `rollback` would go below the version of the ``Checkpoint`` the database was built from: the
    /// checkpoint has no down section.
    case crossesCheckpoint(path: String, version: Int64)
    /// A database below the ``Checkpoint`` (at `databaseVersion`, between 1 and its version − 1) needs the
    /// original files of the versions above it, and these are gone.
    case checkpointLacks(path: String, checkpointVersion: Int64, databaseVersion: Int64, missing: [String])
    /// `rollback` stopped before undoing migration `before`: another process applied the newer migration
    /// `version` while it ran.
    case appliedMeanwhile(version: Int64, before: Int64)
    /// A `transaction:false` migration was started at `startedAt` (UTC) and has not finished: it is still
    /// running in another process, or that process stopped partway.
    case unfinished(version: Int64, name: String, startedAt: String)
    /// No migration file has this version.
    case unknownVersion(Int64)
    /// The migration has not been applied, so the operation does not apply to it.
    case notApplied(version: Int64)
    /// A migration or seed failed and was rolled back; the diagnostic locates the failure and its
    /// notes say what state the database is in.
    case failed(Diagnostic)
    /// A migration or seed left rows whose foreign keys have no parent; it was rolled back.
    case foreignKeyViolations(path: String, violations: [ForeignKeyViolation], notes: [String])

    /// The error as a diagnostic about a file, when it is about one.
    public var diagnostic: Diagnostic? {
        switch self {
        case .badFileName(let path):
            Diagnostic(path: path, message: "file name does not fit <version>_<name>.sql (name: letters, digits, _ and -)")
        case .duplicateVersion(let version, let paths):
            Diagnostic(
                path: paths[0], message: "version \(version) is also used by \(paths.dropFirst().joined(separator: ", "))")
        case .invalidFile(let diagnostic), .failed(let diagnostic):
            diagnostic
        case .nonTransactionalInAllOrNothing(let path):
            Diagnostic(path: path, message: "runs with transaction:false, so it cannot be part of an all-or-nothing run")
        case .changedAfterApply(let version, let path):
            Diagnostic(
                path: path,
                message: "migration \(version) changed after it was applied (checksum differs)")
        case .noDownSection(let path):
            Diagnostic(path: path, message: "no down section ('-- migrate:down'), so it cannot be rolled back")
        case .seedOutsideFolder(let path, let folder):
            Diagnostic(
                path: path, message: "not inside the seeds folder '\(folder)', where seeds are recorded by their name")
        case .unwritten(let path):
            Diagnostic(
                path: path, message: "not written yet: its up section is still the template a new migration file starts with")
        case .foreignKeyViolations(let path, let violations, let notes):
            Diagnostic(path: path, message: Self.describe(violations), notes: notes)
        case .missingFolder, .foreignLedger, .otherToolLedger, .dirtyOtherToolLedger, .noOtherToolLedger, .tooManySteps,
            .crossesBaseline, .outOfOrder, .appliedButMissing, .crossesCheckpoint, .checkpointLacks,
            .appliedMeanwhile, .unfinished, .unknownVersion, .notApplied:
            nil
        }
    }

    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .missingFolder(let path):
            "no folder '\(path)'"
        case .foreignLedger(let table, let problem):
            "table main.\(table) is not cellar's ledger (\(problem)); nothing was read or changed"
        case .otherToolLedger(let ledger):
            "the database holds \(ledger.tool.rawValue)'s ledger (table \(ledger.table)) and no cellar_migrations: "
                + "the \(Self.count(ledger)) it records as applied would run again; nothing was changed"
        case .dirtyOtherToolLedger(let ledger):
            "\(ledger.tool.rawValue)'s ledger (table \(ledger.table)) is dirty at version \(ledger.dirtyVersion ?? 0): "
                + "that migration failed partway, so what the database holds is not known; nothing was changed"
        case .noOtherToolLedger:
            "the database holds no other tool's ledger (dbmate, goose, golang-migrate, sql-migrate, diesel, sqlx); "
                + "nothing was changed"
        case .outOfOrder(let paths, let newest):
            "\(paths.joined(separator: ", ")) \(paths.count == 1 ? "is" : "are") older than the newest applied migration "
                + "(\(newest))"
        case .tooManySteps(let requested, let undoable, let baseline):
            "cannot undo \(requested) migration\(requested == 1 ? "" : "s"): "
                + (undoable == 0 ? "none may be undone" : "only \(undoable) may be undone")
                + (baseline.map { "; " + Self.baselineNote($0) } ?? "") + "; nothing was changed"
        case .crossesBaseline(let baseline):
            "cannot roll back past it: \(Self.baselineNote(baseline)); nothing was changed"
        case .appliedButMissing(let version, let name):
            "migration \(version) (\(name)) is recorded as applied but its file is missing"
        case .crossesCheckpoint(let path, let version):
            "cannot roll back below version \(version): the database was built from the checkpoint \(path), "
                + "which has no down section; nothing was changed"
        case .checkpointLacks(let path, let checkpointVersion, let databaseVersion, let missing):
            "the database is at version \(databaseVersion), below the checkpoint \(path) (version \(checkpointVersion)), "
                + "which only builds new databases: it needs the migration files \(missing.joined(separator: ", ")), "
                + "which are gone (restore them from version control); nothing was changed"
        case .appliedMeanwhile(let version, let before):
            "another process applied migration \(version) while this rollback ran; stopped before undoing "
                + "migration \(before)"
        case .unfinished(let version, let name, let startedAt):
            "migration \(version) (\(name)) was started at \(startedAt) and has not finished: it runs with "
                + "transaction:false and is still running in another process, or that process stopped partway "
                + "(its statements before that point stay done)"
        case .unknownVersion(let version):
            "no migration file has version \(version)"
        case .notApplied(let version):
            "migration \(version) is not applied"
        default:
            diagnostic?.description ?? "migration error"
        }
    }

    /// `3 migrations`, or for golang-migrate's one row, `migrations up to version 3`.
    private static func count(_ ledger: OtherToolLedger) -> String {
        if ledger.coversEarlierVersions { return "migrations up to version \(ledger.versions.last ?? 0)" }
        return "\(ledger.versions.count) migration\(ledger.versions.count == 1 ? "" : "s")"
    }

    /// Why a baselined migration stops a rollback.
    package static func baselineNote(_ baseline: AppliedMigration) -> String {
        "migration \(baseline.version) (\(baseline.name)) was recorded by baseline and is never undone "
            + "(its down section would drop what the migrations did not create)"
    }

    private static func describe(_ violations: [ForeignKeyViolation]) -> String {
        let first = violations[0]
        let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
        return "foreign key violation: \(first)\(more)"
    }
}
