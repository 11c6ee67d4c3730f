import CellarKit
import TestSupport
import Testing

/// Issue 15 H3: `PRAGMA journal_mode=…`, which SQLite ignores inside a transaction, fails a
/// transactional migration or script instead of being silently recorded as done.
@Suite struct PragmaInTransactionTests {
    @Test(arguments: ["PRAGMA journal_mode=WAL;", "pragma JOURNAL_MODE = 'delete';", "PRAGMA main.journal_mode=wal;"])
    func aTransactionalMigrationThatSetsTheJournalModeFails(statement: String) throws {
        let project = try MigrationProject([
            "1_t.sql": "CREATE TABLE t (x);\n", "2_wal.sql": "CREATE TABLE u (x);\n\(statement)\n",
        ])
        let database = try project.open()
        #expect {
            try project.migrator(database).migrate()
        } throws: { error in
            guard let diagnostic = (error as? MigrationError)?.diagnostic else { return false }
            return diagnostic.location == SourceLocation(line: 2, column: 1)
                && diagnostic.message.contains("journal_mode cannot change inside a transaction")
                && diagnostic.message.contains("transaction:false")
        }
        #expect(try project.versions(database) == [1])
        #expect(try project.tables(database).contains("u") == false)
        #expect(try database.scalar("PRAGMA journal_mode") == .text("delete"))
    }

    @Test func readingTheJournalModeStaysAllowedAndTransactionFalseSetsIt() throws {
        let project = try MigrationProject([
            "1_read.sql": "PRAGMA journal_mode;\nCREATE TABLE t (x);\n",
            "2_wal.sql": "-- migrate:up transaction:false\nPRAGMA journal_mode=WAL;\n",
        ])
        let database = try project.open()
        try project.migrator(database).migrate()
        #expect(try project.versions(database) == [1, 2])
        #expect(try database.scalar("PRAGMA journal_mode") == .text("wal"))
    }

    @Test func aTransactionalScriptThatSetsTheJournalModeFails() throws {
        let folder = TemporaryDirectory()
        let database = try Database(path: folder.file("s.db"))
        #expect {
            try ScriptRunner(database: database).run(
                BufferSource("CREATE TABLE t (x);\nPRAGMA journal_mode=WAL;\n"), path: "s.sql")
        } throws: { error in
            guard let diagnostic = error as? Diagnostic else { return false }
            return diagnostic.location == SourceLocation(line: 2, column: 1) && diagnostic.reason == .needsNoTransaction
        }
        #expect(try database.scalar("SELECT count(*) FROM sqlite_schema") == .integer(0))
        #expect(try database.scalar("PRAGMA journal_mode") == .text("delete"))
    }
}
