/// What `cellar test` found for one migration.
package struct MigrationTestResult: Sendable {
    /// The migration.
    package let migration: Migration
    /// Whether it has a down section (without one only its up runs).
    package var hasDownSection = true
    /// What its down does not restore, and what a second up leaves differently, one line each.
    package var schemaProblems: [String] = []
    /// Tables that lost rows the migration did not delete: `subtitles: 1,204 → 0 rows after 0042_rebuild_media`.
    package var rowLosses: [String] = []
    /// Rows the migration deleted itself, for the record: `wine: 10 → 0 rows after 0005_purge (deleted by it)`.
    package var rowDeletions: [String] = []

    /// Whether its second up failed, so that the migrations after it could not be tested.
    package var stopsTheRun = false

    /// Whether the migration fails the test.
    package var isFailed: Bool { !schemaProblems.isEmpty || !rowLosses.isEmpty }
}

/// Runs migrations up, down and up again on a rehearsal (an in-memory replay, or a copy of a
/// database), checking that the down restores the schema before the up, that the second up builds
/// what the first did (both compared as drift detection compares schemas), and, when rows are
/// counted, that no table loses rows the migration did not delete.
package final class MigrationTester {
    private let database: Database
    private let migrator: Migrator
    private let countsRows: Bool
    private var requests: [(code: Int32, table: String)] = []
    /// Marks, among the authorizer's requests, where a statement started running.
    private static let statementStarted: Int32 = -1

    /// A tester on `rehearsal`, a private database it may change (its authorizer too), holding
    /// `migrations` (every file, by version).
    package init(rehearsal: Database, migrations: [Migration], checkpoint: Checkpoint? = nil, countsRows: Bool) throws {
        database = rehearsal
        migrator = Migrator(connection: rehearsal, migrations: migrations, checkpoint: checkpoint)
        migrator.isRehearsal = true
        self.countsRows = countsRows
        try rehearsal.setAuthorizer { [unowned self] request in
            if request.accessor == nil, let table = request.first { requests.append((request.code, table)) }
            return .allow
        }
        try rehearsal.trace { [unowned self] _ in requests.append((Self.statementStarted, "")) }
    }

    /// Tests `targets`, in version order, each after the migrations before it.
    ///
    /// - Throws: ``MigrationError`` when a migration fails on the rehearsal, its notes saying the
    ///   database itself was not changed.
    package func test(_ targets: [Migration]) throws -> [MigrationTestResult] {
        var results: [MigrationTestResult] = []
        for migration in targets.sorted(by: { $0.version < $1.version }) {
            let result = try test(migration)
            results.append(result)
            if result.stopsTheRun { break }
        }
        return results
    }

    private func test(_ migration: Migration) throws -> MigrationTestResult {
        var result = MigrationTestResult(migration: migration)
        // The checkpoint, when it is below the migration, builds what precedes it (its files may be gone).
        let previous = [
            migrator.migrations.last(where: { $0.version < migration.version })?.version,
            migrator.checkpoint.flatMap { $0.version < migration.version ? $0.version : nil },
        ].compactMap { $0 }.max()
        if let previous {
            _ = try step { _ = try migrator.migrate(.init(target: previous, allowsOutOfOrder: true)) }
        }
        let name = migration.identifier
        let before = try state()
        let deletedByUp = try step { _ = try migrator.migrate(.init(target: migration.version, allowsOutOfOrder: true)) }
        let afterUp = try state()
        compareRows(before, afterUp, deleted: deletedByUp, after: name, into: &result)
        guard migration.down != nil else {
            result.hasDownSection = false
            return result
        }
        let deletedByDown = try step { _ = try migrator.rollback(.steps(1)) }
        let afterDown = try state()
        result.schemaProblems += Self.differences(from: before.schema, to: afterDown.schema, step: "its down")
        compareRows(afterUp, afterDown, deleted: deletedByDown, after: "\(name) down", into: &result)
        let deletedByRedo: Set<String>
        do {
            deletedByRedo = try step { _ = try migrator.migrate(.init(target: migration.version, allowsOutOfOrder: true)) }
        } catch MigrationError.failed(let diagnostic) {
            // What the down left behind makes the up fail: the rehearsal cannot go on from here.
            result.schemaProblems.append("the second up fails: \(diagnostic.description)")
            result.stopsTheRun = true
            return result
        }
        let afterRedo = try state()
        result.schemaProblems += Self.differences(from: afterUp.schema, to: afterRedo.schema, step: "the second up")
        compareRows(afterDown, afterRedo, deleted: deletedByRedo, after: "\(name) (second up)", into: &result)
        return result
    }

    // MARK: - One step

    /// Runs `body` and returns the tables its statements deleted rows from (lowercased): a `DELETE`,
    /// not the delete SQLite authorizes for a `DROP TABLE` right after authorizing the drop.
    private func step(_ body: () throws -> Void) throws -> Set<String> {
        requests = []
        do {
            try body()
        } catch MigrationError.failed(var diagnostic) {
            diagnostic.notes = ["test: the migration failed on the rehearsal; the database was not changed"]
            throw MigrationError.failed(diagnostic)
        }
        // Statements are told apart by the trace: a statement's requests come while it is prepared,
        // before it starts. In each, the first delete or drop is what the statement asks for; deletes
        // after it come from foreign keys (ON DELETE CASCADE) or from the drop itself.
        var deleted: Set<String> = []
        var isFirst = true
        for request in requests {
            switch request.code {
            case Self.statementStarted: isFirst = true
            case AuthorizationRequest.deleteCode where isFirst:
                deleted.insert(request.table.lowercased())
                isFirst = false
            case AuthorizationRequest.deleteCode, AuthorizationRequest.dropTableCode: isFirst = false
            default: break
            }
        }
        return deleted
    }

    private struct State {
        let schema: [SchemaObject.Key: SchemaObject]
        let rows: [String: Int]
        let sequences: [String: Int64]
    }

    private func state() throws -> State {
        let sequences: [String: Int64]
        if countsRows, try database.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_sequence'") == .integer(1) {
            sequences = Dictionary(
                try database.query("SELECT name, seq FROM sqlite_sequence").compactMap { row -> (String, Int64)? in
                    guard case .integer(let seq) = row[1] else { return nil }
                    return (row[0].ledgerText.lowercased(), seq)
                }, uniquingKeysWith: max)
        } else {
            sequences = [:]
        }
        return State(
            schema: try SchemaObject.all(in: database), rows: countsRows ? try TableRowCounts.read(database) : [:],
            sequences: sequences)
    }

    private func compareRows(
        _ old: State, _ new: State, deleted: Set<String>, after step: String, into result: inout MigrationTestResult
    ) {
        for (table, before) in old.rows.sorted(by: { $0.key < $1.key }) {
            guard let after = new.rows[table], after < before else { continue }
            let line = "\(table): \(TableRowCounts.formatted(before)) → \(TableRowCounts.formatted(after)) rows after \(step)"
            if deleted.contains(table) {
                result.rowDeletions.append(line + " (deleted by it)")
            } else {
                result.rowLosses.append(line)
            }
        }
        for (table, before) in old.sequences.sorted(by: { $0.key < $1.key }) {
            guard let after = new.sequences[table] ?? (new.rows[table] != nil ? 0 : nil), after < before else { continue }
            result.rowLosses.append(
                "sqlite_sequence: \(table) \(before) → \(after) after \(step) (AUTOINCREMENT would give the ids of deleted rows again)"
            )
        }
    }

    /// What differs between the schema `expected` and the schema `actual` a step left.
    static func differences(
        from expected: [SchemaObject.Key: SchemaObject], to actual: [SchemaObject.Key: SchemaObject], step: String
    ) -> [String] {
        Migrator.differences(live: actual, expected: expected).map { drift in
            let object = "\(drift.type) \(drift.name)"
            switch drift.kind {
            case .removed: return "\(step) does not restore \(object)"
            case .added: return "\(step) leaves \(object), which was not there before"
            case .changed(let added, let removed):
                var parts: [String] = []
                if !removed.isEmpty {
                    parts.append("without column\(removed.count == 1 ? "" : "s") \(removed.joined(separator: ", "))")
                }
                if !added.isEmpty {
                    parts.append("with column\(added.count == 1 ? "" : "s") \(added.joined(separator: ", ")) more")
                }
                let detail = parts.isEmpty ? "defined differently" : parts.joined(separator: " and ")
                return "\(step) leaves \(object) \(detail)"
            }
        }
    }
}

@available(*, unavailable)
extension MigrationTester: Sendable {}
