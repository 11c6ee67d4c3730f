import CellarKit
import TestSupport
import Testing

/// Smaller first-contact fixes: `PRAGMA foreign_keys = ON` in a migration's transaction is refused
/// (SQLite would ignore it), and a dqlite cluster without a leader names `--busy-timeout`.
@Suite struct MigrationPragmaAndClusterAdviceTests {
    @Test func foreignKeysOnInATransactionalMigrationIsRefusedAndNothingChanges() throws {
        let project = try CLIProject([
            "0001_parent.sql": "CREATE TABLE parent (id INTEGER PRIMARY KEY);",
            "0002_on.sql": "-- migrate:up\nCREATE TABLE child (p REFERENCES parent);\nPRAGMA foreign_keys = ON;\n",
        ])
        let result = project.run(["migrate"])
        #expect(result.status == 1)
        #expect(
            result.error.contains("0002_on.sql:3:1: error: PRAGMA foreign_keys = ON cannot change inside a transaction"),
            "\(result.error)")
        #expect(result.error.contains("transaction:false"), "\(result.error)")
        #expect(try project.tables() == ["cellar_migrations", "parent"])
        #expect(try project.scalar("SELECT max(version) FROM cellar_migrations") == .integer(1))
    }

    @Test(arguments: [
        "-- migrate:up transaction:false\nPRAGMA foreign_keys = ON;\n",
        "-- migrate:up\nPRAGMA foreign_keys = OFF;\nCREATE TABLE t (x);\n",
        "-- migrate:up\nPRAGMA foreign_keys;\nCREATE TABLE t (x);\n",
    ])
    func foreignKeysOutsideATransactionOrTurnedOffOrReadRuns(_ text: String) throws {
        let project = try CLIProject(["0001_fk.sql": text])
        let result = project.run(["migrate"])
        #expect(result.status == 0, "\(result.error)")
    }

    @Test func noLeaderWithinTheBusyTimeoutSaysToRaiseIt() {
        let result = InProcessRun(["query", "SELECT 1", "-d", "dqlite://127.0.0.1:1/app", "--busy-timeout", "200"])
        #expect(result.status == 1)
        #expect(result.error.contains("within the busy timeout (200 ms)"), "\(result.error)")
        #expect(result.error.contains("raise --busy-timeout"), "\(result.error)")
    }
}
