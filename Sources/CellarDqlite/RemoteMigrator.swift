import CellarKit
import DqliteClient

/// The migrator on a dqlite cluster, with the local migrator's guarantees:
///
/// - each migration runs in one `BEGIN IMMEDIATE` transaction together with its ledger row;
/// - transaction control inside a migration is refused before any of its statements is sent;
/// - when the leader is lost (killed, stepped down, connection gone) the transaction is gone with it:
///   cellar finds the new leader and starts that migration again from `BEGIN`, where the ledger is
///   read before anything else, so a migration whose `COMMIT` did land is skipped, never applied twice.
///
/// Reports (status, pending, verify) come from the local migrator run on a copy of the cluster's
/// ledger, so both engines answer with one logic.
public final class RemoteMigrator {
    /// The database on the cluster.
    public let database: RemoteDatabase
    /// The migration files, by version.
    public let migrations: [Migration]
    /// Receives progress, as ``Migrator/observer`` does.
    public var observer: ((MigrationEvent) -> Void)?
    /// How many times one migration is started again after a lost leader.
    public var maximumRestarts = 5
    /// Told, after a lost leader, why it was lost and which node leads now (before anything is retried).
    public var onReconnect: ((_ reason: String, _ leader: String) -> Void)?

    /// A migrator for `migrations` on `database`.
    public init(database: RemoteDatabase, migrations: [Migration]) {
        self.database = database
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    // MARK: - Reading the ledger

    /// Every applied migration, by version.
    public func applied() throws -> [AppliedMigration] {
        try mirror().applied()
    }

    /// A local migrator over an in-memory copy of the cluster's ledger, for status, pending and verify.
    public func mirror() throws -> Migrator {
        let copy = try Database(path: ":memory:")
        try copy.execute(Ledger.createMigrations)
        for row in try ledgerRows() {
            try copy.execute("INSERT INTO cellar_migrations VALUES (?, ?, ?, ?, ?, ?)", row)
        }
        return Migrator(database: copy, migrations: migrations)
    }

    /// The rows of the cluster's `cellar_migrations` (none when it does not exist yet).
    private func ledgerRows() throws -> [[Value]] {
        try restarting {
            let exists = try database.scalar(
                "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'cellar_migrations'")
            guard exists == .integer(1) else { return [] }
            let kind = try hasKindColumn() ? "kind" : "'applied'"
            return try database.query(
                "SELECT version, name, checksum, applied_at, duration_ms, \(kind) FROM cellar_migrations ORDER BY version")
        }
    }

    /// Whether the ledger has the `kind` column (ledgers written before baselines were marked lack it).
    private func hasKindColumn() throws -> Bool {
        try database.scalar("SELECT count(*) FROM pragma_table_info('cellar_migrations') WHERE name = 'kind'") == .integer(1)
    }

    /// Creates the ledger, or adds the `kind` column to an older one, inside the caller's transaction.
    private func prepareLedger() throws {
        try database.execute(Ledger.createMigrations)
        if try !hasKindColumn() {
            try database.execute("ALTER TABLE main.cellar_migrations ADD COLUMN kind TEXT NOT NULL DEFAULT 'applied'")
        }
    }

    /// The newest applied version (0 when none).
    public func currentVersion() throws -> Int64 {
        try applied().last?.version ?? 0
    }

    // MARK: - Applying

    /// Applies pending migrations in version order, each in its own transaction.
    /// - Returns: what each did (skipped: applied meanwhile by another run).
    /// - Throws: ``MigrationError`` as ``Migrator/migrate(_:)``; a lost cluster as `DqliteError`.
    @discardableResult
    public func migrate(_ options: Migrator.Options = Migrator.Options()) throws -> [MigrationOutcome] {
        let todo = try mirror().validate(options)
        if options.isAllOrNothing {
            guard !todo.isEmpty else { return [] }
            let outcomes = try restarting { try apply(todo, note: "all \(todo.count) migrations of this run (--all-or-nothing)") }
            for outcome in outcomes where !outcome.wasSkipped { observer?(.finished(outcome)) }
            return outcomes
        }
        var outcomes: [MigrationOutcome] = []
        for migration in todo {
            let outcome: MigrationOutcome
            if migration.up.isTransactional {
                outcome = try restarting { try apply([migration], note: "migration \(migration.versionText)") }[0]
            } else {
                outcome = try applyWithoutTransaction(migration)
            }
            outcomes.append(outcome)
            if !outcome.wasSkipped { observer?(.finished(outcome)) }
        }
        return outcomes
    }

    /// `migrations` in one transaction with their ledger rows; those already recorded are skipped.
    private func apply(_ batch: [Migration], note: String) throws -> [MigrationOutcome] {
        for migration in batch { try refuseTransactionControl(in: migration, note: note) }
        FaultPause.reach("before:\(batch[0].version)")
        try database.beginImmediate()
        var current = batch[0]
        do {
            try prepareLedger()
            let before = try foreignKeyViolations()
            var outcomes: [MigrationOutcome] = []
            for migration in batch {
                current = migration
                if try database.scalar("SELECT count(*) FROM cellar_migrations WHERE version = ?", [.integer(migration.version)])
                    != .integer(0)
                {
                    outcomes.append(skipped(migration))
                    continue
                }
                observer?(.started(migration))
                let start = WallClock.milliseconds()
                let result = try run(migration.up, of: migration)
                try checkForeignKeys(of: migration, before: before)
                let duration = WallClock.milliseconds() - start
                try record(migration, durationMilliseconds: duration)
                outcomes.append(
                    MigrationOutcome(
                        migration: migration, wasSkipped: false, durationMilliseconds: duration,
                        statementCount: result.statements, changedRows: result.changedRows, schemaChanges: nil))
            }
            database.connection.onStatementSent = { sql in
                if sql == "COMMIT" { FaultPause.reach("commit:\(current.version)") }
            }
            defer { database.connection.onStatementSent = nil }
            try database.execute("COMMIT")
            return outcomes
        } catch {
            if RemoteDatabase.isLeadershipLoss(error) { throw error }
            database.rollbackIfOpen()
            throw failure(error, migration: current, note: note)
        }
    }

    /// A `transaction:false` migration: its statements in autocommit, then its ledger row. After a lost
    /// leader cellar cannot know which statements ran, so it stops and says so instead of guessing.
    private func applyWithoutTransaction(_ migration: Migration) throws -> MigrationOutcome {
        if try currentLedgerHas(migration.version) { return skipped(migration) }
        observer?(.started(migration))
        let start = WallClock.milliseconds()
        let result = try run(migration.up, of: migration)
        let duration = WallClock.milliseconds() - start
        try restarting {
            try database.beginImmediate()
            try prepareLedger()
            try record(migration, durationMilliseconds: duration)
            try database.execute("COMMIT")
        }
        return MigrationOutcome(
            migration: migration, wasSkipped: false, durationMilliseconds: duration, statementCount: result.statements,
            changedRows: result.changedRows, schemaChanges: nil)
    }

    // MARK: - Steps

    /// Runs a section statement by statement; a failing statement becomes a located diagnostic.
    func run(_ section: Migration.Section, of migration: Migration) throws -> (statements: Int, changedRows: Int) {
        var statements = 0
        var changedRows = 0
        for piece in StatementSplitter.split(section.sql) {
            do {
                changedRows += try database.execute(piece.sql)
                statements += 1
                FaultPause.reach("statement:\(migration.version):\(statements)")
            } catch let error as DqliteError where !error.isLeadershipLoss {
                throw MigrationError.failed(
                    RemoteDiagnostic.locate(
                        error, statement: piece, sectionOffset: section.startOffset, text: migration.text, path: migration.path))
            }
        }
        return (statements, changedRows)
    }

    private func refuseTransactionControl(in migration: Migration, note: String) throws {
        for piece in StatementSplitter.split(migration.up.sql) {
            guard let operation = TransactionControl.operation(of: piece.sql) else { continue }
            var diagnostic = Diagnostic(
                path: migration.path, text: migration.text, byteOffset: migration.up.startOffset + piece.offset,
                message: "\(operation) is not allowed here: cellar runs this in a transaction of its own and commits it "
                    + "(a migration that manages its own transactions needs '-- migrate:up transaction:false')")
            diagnostic.notes.append(try rolledBackNote(note))
            throw MigrationError.failed(diagnostic)
        }
    }

    private func record(_ migration: Migration, durationMilliseconds: Double) throws {
        try database.execute(
            """
            INSERT INTO main.cellar_migrations (version, name, checksum, applied_at, duration_ms, kind)
            VALUES (?, ?, ?, ?, ?, 'applied')
            """,
            [
                .integer(migration.version), .text(migration.name), .text(migration.checksum), .text(WallClock.utcTimestamp()),
                .integer(Int64(durationMilliseconds.rounded())),
            ])
    }

    private func currentLedgerHas(_ version: Int64) throws -> Bool {
        try applied().contains { $0.version == version }
    }

    private func foreignKeyViolations() throws -> [ForeignKeyViolation] {
        try database.query("PRAGMA foreign_key_check").map { row in
            let rowid: Int64? = if case .integer(let id) = row[1] { id } else { nil }
            return ForeignKeyViolation(table: text(row[0]), rowid: rowid, parent: text(row[2]), foreignKeyIndex: integer(row[3]))
        }
    }

    private func checkForeignKeys(of migration: Migration, before: [ForeignKeyViolation]) throws {
        let after = try foreignKeyViolations()
        guard !after.isEmpty else { return }
        let old = Set(before)
        let new = after.filter { !old.contains($0) }
        if !new.isEmpty { throw MigrationError.foreignKeyViolations(path: migration.path, violations: new, notes: []) }
        observer?(.foreignKeyWarning(migration, after))
    }

    // MARK: - Faults

    /// Runs `body`; when the leader is lost, finds the new one and runs `body` again from the start
    /// (which reads the ledger first), at most ``maximumRestarts`` times, each search bounded by the
    /// busy timeout.
    func restarting<T>(_ body: () throws -> T) throws -> T {
        var restarts = 0
        while true {
            do {
                return try body()
            } catch  where RemoteDatabase.isLeadershipLoss(error) && restarts < maximumRestarts {
                restarts += 1
                try database.reconnect()
                onReconnect?(String(describing: error), database.connection.leader?.description ?? "?")
            }
        }
    }

    func failure(_ error: any Error, migration: Migration, note: String) -> any Error {
        let rolledBack = (try? rolledBackNote(note)) ?? "\(note) rolled back"
        switch error {
        case MigrationError.failed(var diagnostic):
            diagnostic.notes.append(rolledBack)
            return MigrationError.failed(diagnostic)
        case MigrationError.foreignKeyViolations(let path, let violations, let notes):
            return MigrationError.foreignKeyViolations(path: path, violations: violations, notes: notes + [rolledBack])
        case let error as DqliteError:
            return MigrationError.failed(Diagnostic(path: migration.path, message: error.description, notes: [rolledBack]))
        default:
            return error
        }
    }

    func rolledBackNote(_ what: String) throws -> String {
        "\(what) rolled back; the database is still at version \(try currentVersion())"
    }

    private func skipped(_ migration: Migration) -> MigrationOutcome {
        MigrationOutcome(
            migration: migration, wasSkipped: true, durationMilliseconds: 0, statementCount: 0, changedRows: 0, schemaChanges: nil
        )
    }
}

@available(*, unavailable)
extension RemoteMigrator: Sendable {}

private func integer(_ value: Value) -> Int64 {
    if case .integer(let integer) = value { return integer }
    return 0
}

private func text(_ value: Value) -> String {
    switch value {
    case .text(let text): text
    case .integer(let integer): String(integer)
    default: ""
    }
}
