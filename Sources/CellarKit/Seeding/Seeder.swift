/// Runs seed files, each in one `BEGIN IMMEDIATE` transaction together with its `cellar_seeds` row.
///
/// Seed SQL can load blobs such as label images with `readfile(path)` when the connection has the file
/// functions (``Database/Options/registersFileFunctions``); nothing is registered behind the app's back.
/// Inside a seed, relative paths are relative to the seed file's folder, so seeding works from any
/// working directory; afterwards the functions resolve paths as before.
///
/// ```swift
/// let seeder = Seeder(database: db)
/// try seeder.run(try Seed.all(in: "seeds"))
/// ```
public final class Seeder {
    /// Where a seed stands.
    public struct Status: Sendable {
        /// The seed file, when there is one.
        public let seed: Seed?
        /// The name recorded (or to be recorded) in `cellar_seeds`.
        public let name: String
        /// Applied, pending, changed (the file differs from what ran) or missing (recorded, no file).
        public let state: MigrationStatus.State
        /// The file's checksum, or the recorded one when the file is missing.
        public let checksum: String
        /// When it ran, if it did.
        public let appliedAt: String?
    }

    /// What running one seed did.
    public struct Outcome: Sendable {
        /// The seed.
        public let seed: Seed
        /// Whether it was not run because it had been applied already.
        public let wasSkipped: Bool
        /// How many statements ran.
        public let statementCount: Int
        /// Rows inserted, updated or deleted.
        public let changedRows: Int
    }

    /// The connection seeds run on.
    package let database: any SQLConnection

    /// A seeder on `database`. Nothing is registered on the connection: seeds that load files with
    /// `readfile` need a connection that has the file functions (``Database/Options/registersFileFunctions``).
    public convenience init(database: Database) {
        self.init(connection: database)
    }

    /// A seeder on any engine's connection.
    package init(connection: any SQLConnection) {
        self.database = connection
    }

    /// The state of each seed, plus recorded seeds whose file is not among `seeds`.
    public func status(of seeds: [Seed]) throws -> [Status] {
        let applied = try Ledger.appliedSeeds(in: database)
        var result = seeds.map { seed in
            let record = applied[seed.name]
            let state: MigrationStatus.State =
                record == nil ? .pending : (record?.checksum == seed.checksum ? .applied : .changed)
            return Status(seed: seed, name: seed.name, state: state, checksum: seed.checksum, appliedAt: record?.appliedAt)
        }
        for (name, record) in applied.sorted(by: { $0.key < $1.key }) where !seeds.contains(where: { $0.name == name }) {
            result.append(Status(seed: nil, name: name, state: .missing, checksum: record.checksum, appliedAt: record.appliedAt))
        }
        return result
    }

    /// Runs each seed not applied yet (or every one when `force`), in order; stops at the first failure.
    ///
    /// - Throws: ``MigrationError/failed(_:)`` with a located diagnostic; that seed is rolled back,
    ///   earlier ones stay applied.
    @discardableResult
    public func run(_ seeds: [Seed], force: Bool = false) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for seed in seeds {
            let folder = FilePath.normalized(FilePath.folder(of: seed.path))
            outcomes.append(try database.withFileFunctions(relativeTo: folder) { try run(seed, force: force) })
        }
        return outcomes
    }

    private func run(_ seed: Seed, force: Bool) throws -> Outcome {
        try database.execute("BEGIN IMMEDIATE")
        do {
            try Ledger.prepareSeeds(in: database)
            if !force, try Ledger.appliedSeeds(in: database)[seed.name] != nil {
                try database.execute("COMMIT")
                return Outcome(seed: seed, wasSkipped: true, statementCount: 0, changedRows: 0)
            }
            let before = Set(try SectionRunner.foreignKeyViolations(in: database))
            let result = try SectionRunner(database: database, onProgress: nil).run(
                seed.text, startOffset: 0, text: seed.text, path: seed.path, isGuarded: true)
            let new = try SectionRunner.foreignKeyViolations(in: database).filter { !before.contains($0) }
            if !new.isEmpty { throw MigrationError.foreignKeyViolations(path: seed.path, violations: new, notes: []) }
            try Ledger.recordSeed(name: seed.name, checksum: seed.checksum, in: database)
            try database.execute("COMMIT")
            return Outcome(seed: seed, wasSkipped: false, statementCount: result.statementCount, changedRows: result.changedRows)
        } catch {
            database.rollbackIfNeeded()
            let note = "seed \(seed.name) rolled back"
            switch error {
            case MigrationError.failed(var diagnostic):
                diagnostic.notes.append(note)
                throw MigrationError.failed(diagnostic)
            case MigrationError.foreignKeyViolations(let path, let violations, _):
                throw MigrationError.foreignKeyViolations(path: path, violations: violations, notes: [note])
            default:
                throw error
            }
        }
    }
}

@available(*, unavailable)
extension Seeder: Sendable {}
