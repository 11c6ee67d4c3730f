import CellarKit
import Synchronization

/// The migration folder of a fleet run, read once for all its databases: every database gets the same
/// files, read, checked and hashed once, instead of once per database (which cost more than migrating
/// a small database). A file that cannot be used fails every database that needs it, as it would one
/// by one.
final class FleetMigrationFiles: Sendable {
    private let loaded = Mutex<[String: Result<MigrationFiles, MigrationError>]>([:])
    private let absentChecks = Mutex<[String: Result<Void, any Error>]>([:])

    /// The files of `folder`, read with `load` by the first database that asks; the workers that ask
    /// meanwhile wait for that read rather than repeating it.
    func files(
        in folder: String, _ load: () throws(MigrationError) -> MigrationFiles
    ) throws(MigrationError) -> MigrationFiles {
        try loaded.withLock { cache in
            if let result = cache[folder] { return result }
            let result = Result { () throws(MigrationError) in try load() }
            cache[folder] = result
            return result
        }.get()
    }

    /// What `check` found for the first database of the fleet that did not exist yet: the checks
    /// `migrate` and `setup` make before they run (order, target, `--all-or-nothing`) see no ledger in
    /// such a database, so their answer depends only on the folder's files and the fleet's options, which
    /// every database shares. The other absent databases get the same answer (the same error, or none)
    /// without opening an empty database to ask again; each is still checked again under its write lock
    /// by the migrator, as when another process creates it meanwhile.
    func checkOfAbsentDatabase(in folder: String, _ check: () throws -> Void) throws {
        try absentChecks.withLock { cache in
            if let result = cache[folder] { return result }
            let result = Result { try check() }
            cache[folder] = result
            return result
        }.get()
    }
}
