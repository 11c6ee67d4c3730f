/// Replays migrations' up sections, in version order, into a new in-memory database, to learn the
/// schema they build: what `verify --schema` compares with the live schema, and what checks before a
/// deploy read each migration against.
///
/// A replay is not a migration of anyone's database. It checks the schema the migrations build, not the
/// data they meet: it starts from an empty database (no seed rows), so foreign keys are neither enforced
/// nor checked (`PRAGMA foreign_key_check` would blame rows that refer to seed rows), and no ledger is
/// written. Nothing outside the in-memory database may change: `ATTACH` of a file, `VACUUM INTO`,
/// `writefile` and `load_extension` are refused when prepared. Each migration runs as `migrate` runs it
/// (a transactional one inside a transaction, refusing transaction control), so SQL that `migrate`
/// cannot run fails here too. Every failure is the replay's:
/// `replaying migration 0002 failed: no such table: wineries`, located in the file.
///
/// ```swift
/// let replay = try SchemaReplay(source: .folder("migrations"))
/// let schema = try replay.schema(through: 3)     // the CREATE statements migrations 1…3 build
/// let db = try replay.replay()                   // every migration; a private Database to inspect
/// ```
package struct SchemaReplay {
    /// The migrations to replay, by version.
    package let migrations: [Migration]
    /// The folder's checkpoint: it stands for the versions it covers (run instead of their files)
    /// whenever the replay goes up to its version or beyond.
    package let checkpoint: Checkpoint?
    /// How the in-memory database is opened: as the user's connection was (its extensions and
    /// functions), so migrations that need them replay.
    package var options: Database.Options

    /// A replay of `migrations` (in any order; versions unique), into a database opened with `options`.
    package init(migrations: [Migration], checkpoint: Checkpoint? = nil, options: Database.Options = Database.Options()) {
        self.migrations = migrations.sorted { $0.version < $1.version }
        self.checkpoint = checkpoint
        var memory = options
        memory.mode = .readWriteCreate
        memory.vfsName = nil
        self.options = memory
    }

    /// A replay of every migration in `source` (a folder, or text an app bundles).
    ///
    /// - Throws: ``MigrationError`` for a file that cannot be read as a migration.
    package init(source: MigrationSource, options: Database.Options = Database.Options()) throws(MigrationError) {
        let files = try source.loadReportingProblems()
        if let problem = files.problems.first { throw problem.error }
        self.init(migrations: files.migrations, checkpoint: files.checkpoint, options: options)
    }

    /// A replay set up as `connection` is (see ``SQLConnection/replayOptions``).
    package init(migrations: [Migration], checkpoint: Checkpoint? = nil, like connection: any SQLConnection) {
        self.init(migrations: migrations, checkpoint: checkpoint, options: connection.replayOptions)
    }

    /// What a replay through `version` (all when nil) runs, in order: the checkpoint's body first when
    /// the replay reaches its version (then only the files above it, and any it does not cover), or the
    /// files alone.
    ///
    /// - Throws: ``MigrationError/unknownVersion(_:)`` when neither a file nor the checkpoint has
    ///   `version`; ``MigrationError/checkpointLacks(path:checkpointVersion:databaseVersion:missing:)``
    ///   when a replay stopping below the checkpoint needs files that are gone.
    package func steps(through version: Int64? = nil) throws -> [Migration] {
        if let version, !migrations.contains(where: { $0.version == version }), checkpoint?.covers(version) != true {
            throw MigrationError.unknownVersion(version)
        }
        let target = version ?? .max
        guard let checkpoint, target >= checkpoint.version else {
            let chosen = migrations.filter { $0.version <= target }
            if let checkpoint {
                let files = Set(chosen.map(\.version))
                let lacking = checkpoint.entries.filter { $0.version <= target && !files.contains($0.version) }
                if !lacking.isEmpty {
                    throw MigrationError.checkpointLacks(
                        path: checkpoint.path, checkpointVersion: checkpoint.version, databaseVersion: 0,
                        missing: lacking.map(\.versionText))
                }
            }
            return chosen
        }
        return [checkpoint.body]
            + migrations.filter { $0.version <= target && ($0.version > checkpoint.version || !checkpoint.covers($0.version)) }
    }

    /// Replays every migration up to and including `version` (all when nil) into a new in-memory
    /// database, and returns it.
    ///
    /// - Throws: ``MigrationError/unknownVersion(_:)`` when no migration has `version`;
    ///   ``MigrationError/failed(_:)`` located in the failing file, its message starting
    ///   `replaying migration N failed:`.
    package func replay(through version: Int64? = nil) throws -> Database {
        let steps = try steps(through: version)
        let database = try makeDatabase()
        for migration in steps { try run(migration, on: database) }
        return database
    }

    /// The `CREATE` statements the migrations up to `version` (all when nil) build, as
    /// ``Database/schemaSQL()`` writes them.
    ///
    /// - Throws: as ``replay(through:)``.
    package func schema(through version: Int64? = nil) throws -> String {
        try replay(through: version).schemaSQL()
    }

    /// An empty in-memory database opened as the replay opens its own.
    package func makeDatabase() throws -> Database {
        try Database(path: ":memory:", options: options)
    }

    /// Runs one section of `migration` (its up section, or its down section when `isDown`) on
    /// `database`, a database of ``makeDatabase()``, as the replay runs it: foreign keys off and
    /// unchecked, nothing outside the database written. A migration without a down section runs nothing.
    ///
    /// - Throws: ``MigrationError/failed(_:)`` worded as the replay's (`replaying migration N failed:`,
    ///   or `replaying the down section of migration N failed:`).
    package func run(_ migration: Migration, isDown: Bool = false, on database: Database) throws {
        guard let section = isDown ? migration.down : migration.up else { return }
        let what =
            migration.isCheckpoint
            ? "the checkpoint \(migration.path)"
            : isDown ? "the down section of migration \(migration.versionText)" : "migration \(migration.versionText)"
        var runner = SectionRunner(database: database, onProgress: nil)
        runner.rehearsal = .replay
        do {
            try database.execute("PRAGMA foreign_keys = OFF")
            if section.isTransactional { try database.execute("BEGIN") }
            _ = try runner.run(
                section.sql, startOffset: section.startOffset, text: migration.text, path: migration.path,
                isGuarded: section.isTransactional)
            let isInTransaction = try !database.isAutocommit
            guard isInTransaction == section.isTransactional else {
                throw MigrationError.failed(
                    Diagnostic(path: migration.path, message: "the migration left a transaction open (BEGIN without COMMIT)"))
            }
            if section.isTransactional { try database.execute("COMMIT") }
        } catch {
            database.rollbackIfNeeded()
            throw Self.replayFailure(error, what: what, path: migration.path)
        }
    }

    /// `error` worded as the replay's: never as the state of a database the user has.
    private static func replayFailure(_ error: any Error, what: String, path: String) -> MigrationError {
        var diagnostic =
            switch error {
            case MigrationError.failed(let diagnostic), MigrationError.invalidFile(let diagnostic): diagnostic
            case let error as SQLiteError: Diagnostic(path: path, message: error.message, underlying: error)
            default: Diagnostic(path: path, message: "\(error)")
            }
        diagnostic.message = "replaying \(what) failed: \(diagnostic.message)"
        diagnostic.notes = ["the replay runs the migrations into an empty in-memory database; no database was changed"]
        return .failed(diagnostic)
    }
}
