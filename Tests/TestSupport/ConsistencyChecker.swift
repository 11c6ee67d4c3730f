import CellarKit

/// The one check every fault test ends with: the database is intact, has no foreign-key violations,
/// its ledger names the first k migrations, its schema is exactly what those k migrations make on a
/// fresh database, and `cellar migrate` then completes with no manual repair.
public final class ConsistencyChecker: @unchecked Sendable {
    // @unchecked: one test uses one checker from one thread.
    /// A check that failed, with what was found.
    public struct Failure: Error, CustomStringConvertible {
        /// What was wrong.
        public let description: String

        /// A failure saying `description`.
        public init(description: String) { self.description = description }
    }

    private let project: ReliabilityProject
    private var referenceSchemas: [Int: [String]] = [:]

    /// A checker for databases migrated with `project`'s files.
    public init(project: ReliabilityProject) {
        self.project = project
    }

    /// Checks the database at `path` (opened through the default VFS) without changing it.
    ///
    /// - Returns: k, the number of migrations the ledger records.
    @discardableResult
    public func check(_ path: String) throws -> Int {
        guard FileBytes.exists(path) else { return 0 }
        let database = try Database(path: path, options: .init(mode: .readWrite))
        let integrity = try database.scalar("PRAGMA integrity_check")
        guard integrity == .text("ok") else { throw Failure(description: "integrity_check: \(String(describing: integrity))") }
        let violations = try database.query("PRAGMA foreign_key_check")
        guard violations.isEmpty else { throw Failure(description: "foreign-key violations: \(violations)") }
        let hasLedger = try database.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'cellar_migrations'") == .integer(1)
        let versions = hasLedger ? try database.query("SELECT version FROM cellar_migrations ORDER BY version").map(\.values) : []
        let k = versions.count
        guard versions == (0..<k).map({ [Value.integer(Int64($0 + 1))] }) else {
            throw Failure(description: "the ledger is not a prefix of the history: \(versions)")
        }
        let schema = try Self.schema(of: database)
        let expected = try referenceSchema(after: k)
        guard schema == expected else {
            throw Failure(description: "ledger says \(k) migrations but the schema differs:\n\(schema)\nexpected:\n\(expected)")
        }
        if k > 0 {
            let logged = try database.scalar("SELECT count(*) FROM applied_log")
            guard logged == .integer(Int64(k)) else {
                throw Failure(description: "applied_log has \(String(describing: logged)) rows, ledger \(k)")
            }
        }
        return k
    }

    /// The schema (without cellar's and SQLite's own tables) in a stable order.
    public static func schema(of database: Database) throws -> [String] {
        try database.query(
            """
            SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema
            WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'cellar_%' ORDER BY type, name
            """
        ).map { row in
            if case .text(let text) = row[0] { return text }
            return ""
        }
    }

    private func referenceSchema(after k: Int) throws -> [String] {
        if let cached = referenceSchemas[k] { return cached }
        let database = try Database(path: ":memory:")
        if k > 0 {
            let migrator = try Migrator(database: database, source: .files(Array(project.files.prefix(k))))
            _ = try migrator.migrate()
        }
        let schema = try Self.schema(of: database)
        referenceSchemas[k] = schema
        return schema
    }
}
