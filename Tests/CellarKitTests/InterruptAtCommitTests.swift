import CellarKit
import TestSupport
import Testing

/// Issue 15 H7 and M6: a stop that lands while COMMIT is writing is reported as what really happened,
/// with the version the ledger holds afterwards.
@Suite struct InterruptAtCommitTests {
    private static func table(_ name: String) -> String {
        "-- migrate:up\nCREATE TABLE \(name) (x);\nINSERT INTO \(name) VALUES (1);\n-- migrate:down\nDROP TABLE \(name);\n"
    }

    /// Runs `body` with a stop (flag and `sqlite3_interrupt`, as the signal watcher does) requested the
    /// moment the `commitNumber`th COMMIT starts.
    private func stoppingAtCommit(
        _ commitNumber: Int, on database: Database, _ body: () throws -> Void
    ) throws -> (any Error)? {
        try stopping(at: "COMMIT", number: commitNumber, on: database, body)
    }

    /// Runs `body` with a stop requested the moment the `number`th statement whose text is `sql` starts.
    private func stopping(
        at sql: String, number: Int, on database: Database, _ body: () throws -> Void
    ) throws -> (any Error)? {
        let flag = CancellationFlag()
        database.cancellation = flag
        var seen = 0
        try database.trace { text in
            guard text == sql else { return }
            seen += 1
            if seen == number {
                flag.cancel()
                database.interrupt()
            }
        }
        defer {
            try? database.trace(nil)
            database.cancellation = nil
        }
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [1, 2, 3])
    func theNoteNamesTheVersionTheLedgerHolds(commitNumber: Int) throws {
        let project = try MigrationProject([
            "0001_a.sql": Self.table("a"), "0002_b.sql": Self.table("b"), "0003_c.sql": Self.table("c"),
        ])
        let database = try project.open()
        let migrator = try project.migrator(database)
        let error = try stoppingAtCommit(commitNumber, on: database) { try migrator.migrate() }
        let versions = try project.versions(database)
        let current = versions.last ?? 0
        // What the ledger says is what the schema holds.
        #expect(try project.tables(database).filter { $0.count == 1 } == ["a", "b", "c"].prefix(versions.count).map { $0 })
        if let error {
            let diagnostic = try #require((error as? MigrationError)?.diagnostic, "\(error)")
            let note = try #require(diagnostic.notes.last)
            #expect(note.hasSuffix("the database is still at version \(current)"), "\(note)")
            #expect(!note.contains("migration 000\(current) rolled back"), "\(note)")
        } else {
            #expect(versions == [1, 2, 3])
        }
    }

    /// A stop that lands on the `BEGIN IMMEDIATE` of a migration (the signal came between two
    /// migrations) is reported as one that lands inside it: nothing of that migration was applied, and
    /// the note says so with the version the ledger holds.
    @Test func aStopAtAMigrationsBeginIsReportedWithItsRollbackNote() throws {
        let project = try MigrationProject(["0001_a.sql": Self.table("a"), "0002_b.sql": Self.table("b")])
        let database = try project.open()
        let migrator = try project.migrator(database)
        let error = try stopping(at: "BEGIN IMMEDIATE", number: 2, on: database) { try migrator.migrate() }
        #expect(try project.versions(database) == [1])
        let diagnostic = try #require((error as? MigrationError)?.diagnostic, "\(String(describing: error))")
        #expect(diagnostic.message == "interrupted")
        #expect(diagnostic.notes.last == "migration 0002 rolled back; the database is still at version 1")
    }

    @Test func aScriptCommittedWhenTheStopCameIsReportedAsCommitted() throws {
        let folder = TemporaryDirectory()
        let database = try Database(path: folder.file("s.db"))
        let runner = ScriptRunner(database: database)
        let error = try stoppingAtCommit(1, on: database) {
            try runner.run(BufferSource("CREATE TABLE t (x);\nINSERT INTO t VALUES (1);\n"), path: "s.sql")
        }
        let committed = try database.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 't'") == .integer(1)
        if let error {
            #expect(!committed, "reported \(error) but the script was committed")
        } else {
            #expect(committed)
        }
    }
}
