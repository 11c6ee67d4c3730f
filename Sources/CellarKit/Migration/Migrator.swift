/// Applies numbered migrations to a database, each in its own `BEGIN IMMEDIATE` transaction recorded in
/// `cellar_migrations`, and rolls them back, checks them and reports on them.
///
/// Every file is read and checked when the migrator is created, before anything runs.
///
/// ```swift
/// let db = try Database(path: "wine.sqlite")
/// let migrator = try Migrator(database: db, source: .folder("migrations"))
/// let applied = try migrator.migrate()
/// print("now at version \(try migrator.currentVersion())")
/// ```
public final class Migrator {
    /// How ``migrate(_:)`` and ``plan(_:)`` run.
    public struct Options: Sendable {
        /// Apply only migrations up to this version (all when nil).
        public var target: Int64?
        /// Apply pending migrations older than the newest applied one instead of refusing.
        public var allowsOutOfOrder: Bool
        /// Run every pending migration in one transaction: all are applied or none.
        public var isAllOrNothing: Bool

        /// Options; the defaults apply everything pending, in order, one transaction per migration.
        public init(target: Int64? = nil, allowsOutOfOrder: Bool = false, isAllOrNothing: Bool = false) {
            self.target = target
            self.allowsOutOfOrder = allowsOutOfOrder
            self.isAllOrNothing = isAllOrNothing
        }
    }

    /// The connection migrations run on: a ``Database``, or another engine behind the same seam.
    package let database: any SQLConnection
    /// Every migration file, by version.
    public let migrations: [Migration]
    /// The folder's `checkpoint.sql`, which a database with no ledger runs instead of the migrations it
    /// covers (see ``Checkpoint``).
    public let checkpoint: Checkpoint?
    /// Receives progress while migrations run (called on the migrating thread).
    public var observer: ((MigrationEvent) -> Void)?
    /// How long, in milliseconds, to wait for a `transaction:false` migration another process is running
    /// before giving up on it (the connection's busy timeout when made from a ``Database``).
    public var busyTimeout: Int32 = 5000
    /// Whether outcomes record schema changes (for dry runs; costs a schema read per migration).
    var collectsSchemaChanges = false
    /// What the current run learnt and need not read again (see ``RunKnowledge``).
    var known = RunKnowledge()
    /// The ledger's definition as this run last checked its shape, which each ledger statement of the
    /// run compares as it runs instead of checking the shape again (see ``Ledger/Definition``). Unlike
    /// ``known``, kept after a migration that ran outside a transaction or failed: it is never trusted
    /// without that comparison. Forgotten when the run ends.
    var ledgerDefinition: Ledger.Definition?
    /// The policy installed for a run that applies `transaction:false` migrations on a local database,
    /// shared by their sections (``SectionRunner/sharedPolicy``); nil outside such a run.
    var runPolicy: ConnectionPolicy?
    /// Whether the checks made before the run writes share one read of the ledgers' rows of
    /// `sqlite_schema` (see ``sharingLedgerReads(_:)``).
    private var sharesLedgerReads = false
    /// That read, once made (outside any transaction).
    private var sharedLedgerSchema: LedgerSchema?

    /// Facts a `migrate` or `rollback` run learns and reuses from one migration to the next, saving a
    /// read each (a round trip on a remote engine). Forgotten when the run ends, after a migration that
    /// ran outside a transaction (it may have changed anything), and after a failure.
    struct RunKnowledge {
        /// What `PRAGMA foreign_keys` says (nil: not known): a migration inside a transaction cannot
        /// change it (the pragma is a no-op there).
        var foreignKeysAreOn: Bool?
        /// The foreign-key violations after the last migration this run committed, which are those
        /// before the next one (cellar holds the write lock in between only when the next one begins,
        /// so another writer's new violation would be blamed on it: the migration fails, never passes
        /// wrongly).
        var violations: [ForeignKeyViolation]?
    }
    /// Whether this migrator rehearses a dry run (on a copy, where `ATTACH` is refused, or inside a
    /// transaction that is rolled back).
    var isRehearsal = false

    /// Reads and checks every migration of `source`.
    ///
    /// - Throws: ``MigrationError`` for a missing folder, a bad name, a duplicate version, a bad
    ///   encoding or an empty migration; nothing has run.
    public convenience init(database: Database, source: MigrationSource) throws(MigrationError) {
        let files = try source.loadReportingProblems()
        if let problem = files.problems.first { throw problem.error }
        self.init(database: database, migrations: files.migrations, checkpoint: files.checkpoint)
    }

    /// A migrator for migrations already loaded (sorted by version, versions unique), and the
    /// checkpoint that stands for the first of them, if there is one.
    public convenience init(database: Database, migrations: [Migration], checkpoint: Checkpoint? = nil) {
        self.init(connection: database, migrations: migrations, checkpoint: checkpoint)
        busyTimeout = database.options.busyTimeout
    }

    /// A migrator on any engine's connection.
    package init(connection: any SQLConnection, migrations: [Migration], checkpoint: Checkpoint? = nil) {
        self.database = connection
        self.migrations = migrations.sorted { $0.version < $1.version }
        self.checkpoint = checkpoint
    }

    // MARK: - Reading the ledger

    /// The migrations recorded in `cellar_migrations`, by version (empty for a fresh database).
    public func applied() throws -> [AppliedMigration] {
        try Ledger.appliedMigrations(in: database, schema: ledgerSchema())
    }

    /// The highest applied version, or 0 when none is.
    public func currentVersion() throws -> Int64 {
        try Ledger.newestAppliedVersion(in: database, schema: ledgerSchema())
    }

    /// Runs `body`, in which the checks this migrator makes before it first writes — ``verify()``,
    /// ``status()``, ``pending(_:)``, ``applied()``, ``currentVersion()`` and those ``migrate(_:)`` makes
    /// before its first transaction — read the ledgers' rows of `sqlite_schema` (the ledger's shape,
    /// other tools' ledgers) once instead of once each: on a remote engine, one request instead of one
    /// or two per check. Those checks read outside any lock, so another process may change the database
    /// between them as it may after them; what decides is read again inside each migration's
    /// `BEGIN IMMEDIATE` transaction, which never uses the shared read. The sharing ends when the
    /// migrator writes (a migration, `baseline`, `accept`, `adopt`, a rollback) and with `body`.
    package func sharingLedgerReads<Result>(_ body: () throws -> Result) rethrows -> Result {
        sharesLedgerReads = true
        defer { forgetLedgerReads() }
        return try body()
    }

    /// Ends the sharing of ``sharingLedgerReads(_:)``: the migrator is about to write, or its connection
    /// was lost and made again (the next check reads afresh).
    package func forgetLedgerReads() {
        sharesLedgerReads = false
        sharedLedgerSchema = nil
    }

    /// The shared read of the ledgers' rows of `sqlite_schema`, made now if it was not (see
    /// ``sharingLedgerReads(_:)``); nil when the migrator does not share it or a transaction is open,
    /// where a check reads afresh.
    func ledgerSchema() throws -> LedgerSchema? {
        guard sharesLedgerReads, try database.isAutocommit else { return nil }
        if let sharedLedgerSchema { return sharedLedgerSchema }
        let schema = try LedgerSchema.read(in: database)
        sharedLedgerSchema = schema
        return schema
    }

    /// The migrations ``migrate(_:)`` would apply, in order. On a database with no ledger, the
    /// folder's ``Checkpoint`` comes first (its ``Checkpoint/body``, ``Migration/isCheckpoint``) in
    /// place of the migrations it covers, unless the target is below it.
    ///
    /// - Throws: ``MigrationError/outOfOrder(paths:newestApplied:)`` when one is older than the newest
    ///   applied migration (unless allowed), ``MigrationError/unknownVersion(_:)`` for a target no file has.
    ///   ``MigrationError/otherToolLedger(_:)`` when another tool's ledger holds what was applied.
    ///   ``MigrationError/checkpointLacks(path:checkpointVersion:databaseVersion:missing:)`` when a
    ///   database below the checkpoint needs files that are gone.
    public func pending(_ options: Options = Options()) throws -> [Migration] {
        let applied = Set(try applied().map(\.version))
        if applied.isEmpty { try refuseOtherToolLedger() }
        var newest = applied.max() ?? 0
        if let target = options.target {
            guard migrations.contains(where: { $0.version == target }) || checkpoint?.covers(target) == true else {
                throw MigrationError.unknownVersion(target)
            }
        }
        let target = options.target ?? .max
        var todo: [Migration]
        if let checkpoint, applied.isEmpty, target >= checkpoint.version {
            // A file at or below the checkpoint that it does not cover (a branch merged after the
            // squash) comes after it, as a late migration.
            todo =
                [checkpoint.body]
                + migrations.filter {
                    $0.version <= target && ($0.version > checkpoint.version || !checkpoint.covers($0.version))
                }
            newest = checkpoint.version
        } else {
            todo = migrations.filter { !applied.contains($0.version) && $0.version <= target }
            if let checkpoint, newest < checkpoint.version {
                let files = Set(migrations.map(\.version))
                let lacking = checkpoint.entries.filter {
                    $0.version > newest && $0.version <= target && !applied.contains($0.version) && !files.contains($0.version)
                }
                if !lacking.isEmpty {
                    throw MigrationError.checkpointLacks(
                        path: checkpoint.path, checkpointVersion: checkpoint.version, databaseVersion: newest,
                        missing: lacking.map(\.versionText))
                }
            }
        }
        let late = todo.filter { !$0.isCheckpoint && $0.version < newest }
        if !late.isEmpty, !options.allowsOutOfOrder {
            throw MigrationError.outOfOrder(paths: late.map(\.path), newestApplied: newest)
        }
        return todo
    }

    /// Every migration's state: applied, pending, changed since applied, applied but missing, or
    /// unfinished (a `transaction:false` migration still running or stopped partway).
    ///
    /// - Throws: ``MigrationError/otherToolLedger(_:)`` when another tool's ledger holds what was applied.
    public func status() throws -> [MigrationStatus] {
        let applied = try Ledger.appliedMigrations(in: database, schema: ledgerSchema(), includingUnfinished: true)
        if applied.isEmpty { try refuseOtherToolLedger() }
        let records = Dictionary(applied.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        let versions = Set(migrations.map(\.version))
        var entries: [MigrationStatus] = []
        for migration in migrations {
            let record = records[migration.version]
            let state: MigrationStatus.State =
                switch record {
                case nil: .pending
                case let record? where record.isUnfinished: .unfinished
                case let record?: record.checksum == migration.checksum ? .applied : .changed
                }
            entries.append(MigrationStatus(migration: migration, record: record, state: state))
        }
        for record in applied where !versions.contains(record.version) {
            let isSquashed = checkpoint.map { record.version <= $0.version } ?? false
            entries.append(
                MigrationStatus(
                    migration: nil, record: record, state: record.isUnfinished ? .unfinished : isSquashed ? .squashed : .missing))
        }
        if let checkpoint {
            // Covered migrations with neither a file nor a row: pending, built by the checkpoint (or, on a
            // database below it, lacking their files).
            let newest = applied.last?.version ?? 0
            for entry in checkpoint.entries
            where entry.version > newest && !versions.contains(entry.version) && records[entry.version] == nil {
                entries.append(MigrationStatus(migration: nil, record: nil, state: .pending, checkpointEntry: entry))
            }
        }
        return entries.sorted { $0.version < $1.version }
    }

    /// Problems with applied migrations: files changed since they ran, or missing. Empty when all match.
    public func verify() throws -> [MigrationError] {
        try status().compactMap { entry in
            switch entry.state {
            case .changed: .changedAfterApply(version: entry.version, path: entry.migration?.path ?? entry.name)
            case .missing: .appliedButMissing(version: entry.version, name: entry.name)
            case .unfinished:
                .unfinished(version: entry.version, name: entry.name, startedAt: entry.record?.appliedAt ?? "")
            case .applied, .pending, .squashed: nil
            }
        }
    }

    /// Runs `body` (a whole `migrate` or `rollback`) and restores `PRAGMA foreign_keys` afterwards to what
    /// it was before, whatever the migrations did to it (<https://sqlite.org/pragma.html#pragma_foreign_keys>).
    ///
    /// `body` calls ``turnForeignKeysOff()`` before each migration.
    func withForeignKeysRestored<Result>(_ body: () throws -> Result) throws -> Result {
        forgetLedgerReads()
        known = RunKnowledge()
        ledgerDefinition = nil
        let wasOn = try areForeignKeysOn()
        known.foreignKeysAreOn = wasOn
        defer {
            // Known unless a migration ran outside a transaction or failed (which forget it).
            let isOn = known.foreignKeysAreOn ?? (try? areForeignKeysOn())
            known = RunKnowledge()
            ledgerDefinition = nil
            if isOn != wasOn { try? database.execute("PRAGMA foreign_keys = \(wasOn ? "ON" : "OFF")") }
        }
        return try body()
    }

    /// Turns foreign-key enforcement off before a migration: inside a transaction the pragma is a no-op,
    /// so a 12-step table rebuild (<https://sqlite.org/lang_altertable.html#otheralter>) would otherwise
    /// cascade-delete child rows. Checked before every migration, because a `transaction:false` one may
    /// have turned it on.
    func turnForeignKeysOff() throws {
        if try known.foreignKeysAreOn ?? areForeignKeysOn() { try database.execute("PRAGMA foreign_keys = OFF") }
        known.foreignKeysAreOn = false
    }

    private func areForeignKeysOn() throws -> Bool {
        try database.scalar("PRAGMA foreign_keys") == .integer(1)
    }

    /// The note that ends a failure report: what was undone and where the database stands.
    func rolledBackNote(_ what: String) -> String {
        guard !isRehearsal else { return "dry run: \(what) rolled back; the database was not changed" }
        // A connection the stop dropped may not reach its server again in time: then no version is
        // claimed rather than a wrong one.
        guard let version = try? currentVersion() else { return "\(what) rolled back" }
        return "\(what) rolled back; the database is still at version \(version)"
    }
}

@available(*, unavailable)
extension Migrator: Sendable {}
