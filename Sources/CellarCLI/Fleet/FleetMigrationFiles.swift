import CellarKit
import Synchronization

/// The migration folder of a fleet run, read once for all its databases: every database gets the same
/// files, read, checked and hashed once, instead of once per database (which cost more than migrating
/// a small database). A file that cannot be used fails every database that needs it, as it would one
/// by one.
final class FleetMigrationFiles: Sendable {
    private let loaded = Mutex<[String: Result<MigrationFiles, MigrationError>]>([:])

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
}
