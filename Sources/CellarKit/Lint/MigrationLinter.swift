/// What `cellar lint` is asked to look for beyond the schema: the oldest SQLite to support, and the
/// real database's row counts.
package struct LintOptions: Sendable {
    /// Features newer than this are findings (`needs-sqlite`).
    package var minimumSQLite = SQLiteVersion.linked
    /// Rows per table (lowercased name) of the database the migrations will meet (`--against`); nil
    /// without one, so `big-table` says nothing.
    package var rowCounts: [String: Int]?
    /// Above how many rows a table is big.
    package var bigTableRows = 100_000

    /// The defaults: the linked SQLite, no row counts.
    package init() {}
}

/// What a lint found, and how far it got.
package struct LintReport: Sendable {
    /// The findings, by file then place, those silenced by `-- cellar:allow` left out.
    package var findings: [LintFinding] = []
    /// The migrations read and checked.
    package var checked: [Migration] = []
    /// The migration whose replay failed, after which nothing was checked (the schema the later ones
    /// expect is unknown).
    package var stoppedAt: Migration?

    /// Whether any finding is an error.
    package var hasErrors: Bool { findings.contains { $0.severity == .error } }
}

/// Checks migrations before they run: each is replayed, statement by statement, on an in-memory
/// database holding the schema its predecessors build. Each statement is prepared under an authorizer
/// that records what it would do (<https://sqlite.org/c3ref/set_authorizer.html>), then run on the
/// replay, and the schema it leaves is compared with the one before; the user's database is never
/// touched. Statements that would reach outside memory (`ATTACH` of a file, `VACUUM INTO`, the file
/// functions) are prepared but not run.
///
/// ```swift
/// let replay = try SchemaReplay(migrations: history).makeDatabase()
/// let linter = try MigrationLinter(replay: replay, options: LintOptions())
/// let report = try linter.lint(pending, history: allMigrations)
/// ```
package final class MigrationLinter {
    let replay: Database
    let options: LintOptions
    let recorder = ActionRecorder()
    /// The replay's schema now, and `PRAGMA schema_version` when it was read.
    var schema = LintSchema()
    var schemaVersion: Int64 = -1

    /// A linter replaying on `replay`, a private in-memory database it takes over (its authorizer).
    package init(replay: Database, options: LintOptions) throws {
        self.replay = replay
        self.options = options
        try recorder.install(on: replay)
    }

    /// Checks `targets` against the schema `history` builds: every migration of `history` older than
    /// the newest target is replayed first, in version order (a target stands in for a file of
    /// `history` with its version); `checkpoint` stands for the versions it covers when every target is
    /// above it.
    ///
    /// - Returns: the findings; a checked migration that SQLite refuses ends the report there.
    /// - Throws: ``MigrationError/failed(_:)`` worded as the replay's when a predecessor fails to
    ///   replay (see ``SchemaReplay``), ``SQLiteError`` when the replay itself cannot be read.
    package func lint(_ targets: [Migration], history: [Migration], checkpoint: Checkpoint? = nil) throws -> LintReport {
        var report = LintReport()
        guard let newest = targets.map(\.version).max(), let oldest = targets.map(\.version).min() else { return report }
        let targetVersions = Set(targets.map(\.version))
        var sequence = (history.filter { !targetVersions.contains($0.version) && $0.version < newest } + targets)
            .sorted { $0.version < $1.version }
        // Targets all above the checkpoint: it builds what they are read against, for the versions it
        // covers (their files may be gone).
        if let checkpoint, oldest > checkpoint.version {
            sequence = [checkpoint.body] + sequence.filter { $0.version > checkpoint.version || !checkpoint.covers($0.version) }
        }
        schema = try LintSchema.read(replay)
        schemaVersion = try currentSchemaVersion()
        for migration in sequence {
            guard targetVersions.contains(migration.version) else {
                // A predecessor only builds the schema: the shared replay runs it, its failures worded as
                // the replay's.
                try SchemaReplay(migrations: [migration], options: replay.options).run(migration, on: replay)
                schema = try LintSchema.read(replay, previous: schema)
                schemaVersion = try currentSchemaVersion()
                continue
            }
            var run = LintRun(migration: migration, linter: self)
            let failed = try run.replay()
            report.checked.append(migration)
            report.findings += run.findings()
            if failed {
                report.stoppedAt = migration
                break
            }
        }
        return report
    }

    func currentSchemaVersion() throws -> Int64 {
        if case .integer(let version) = try replay.scalar("PRAGMA schema_version") { return version }
        return 0
    }
}

@available(*, unavailable)
extension MigrationLinter: Sendable {}
