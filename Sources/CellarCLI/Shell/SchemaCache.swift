import CellarKit

/// The schema completion reads, kept between Tabs: each Tab asks SQLite for `PRAGMA schema_version`
/// (one small query; on a dqlite database one round trip to the leader) and reads the schema again
/// only when that number, or the connection, changed.
///
/// SQLite bumps `schema_version` on every change to the schema, by this connection or another one
/// (<https://sqlite.org/pragma.html#pragma_schema_version>).
final class SchemaCache {
    private var snapshot: SchemaSnapshot?
    private var version: Int64?
    /// The connection the snapshot was read from (`.open` replaces the session's).
    private weak var source: (any SQLConnection)?
    /// How many times the schema was read, for tests and the benchmark.
    private(set) var loadCount = 0

    /// Creates an empty cache.
    init() {}

    /// The schema of `database`, read again only if it changed since the last call.
    func snapshot(of database: any SQLConnection) -> SchemaSnapshot {
        let current = try? database.scalar("PRAGMA schema_version")
        let currentVersion: Int64? = if case .integer(let number) = current { number } else { nil }
        if let snapshot, let currentVersion, currentVersion == version, source === database {
            return snapshot
        }
        let loaded = SchemaSnapshot.load(from: database)
        loadCount += 1
        snapshot = loaded
        version = currentVersion
        source = database
        return loaded
    }
}
