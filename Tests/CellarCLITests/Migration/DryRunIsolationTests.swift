import CellarKit
import Glibc
import TestSupport
import Testing

@testable import CellarCLI

/// Issue 15 L2: `migrate --dry-run` leaves the database file and its write-ahead log byte for byte as
/// they were, and refuses to ATTACH, which would reach a real file from the rehearsal.
@Suite struct DryRunIsolationTests {
    /// A WAL database whose last commits are still in its `-wal` file, as a process that stopped leaves it.
    private func walDatabase(in project: CLIProject) throws {
        let staging = project.folder.file("staging.db")
        let writer = try Database(path: staging)
        try writer.execute("PRAGMA journal_mode = WAL")
        try writer.execute("PRAGMA wal_autocheckpoint = 0")
        try writer.execute("CREATE TABLE kept (x); INSERT INTO kept VALUES (1), (2)")
        for suffix in ["", "-wal"] {
            try FileBytes.write(try FileBytes.read(staging + suffix), to: project.databasePath + suffix)
        }
        try writer.close()
    }

    @Test func aDryRunChangesNeitherTheFileNorItsLog() throws {
        let project = try CLIProject(["1_a.sql": "CREATE TABLE a (x);\nINSERT INTO a SELECT x FROM kept;\n"])
        try walDatabase(in: project)
        let before = try [FileBytes.read(project.databasePath), FileBytes.read(project.databasePath + "-wal")]
        #expect(before[1].count > 0)
        let result = project.run(["migrate", "--dry-run"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("1_a: 2 statements, 2 rows changed"), "\(result.output)")
        let after = try [FileBytes.read(project.databasePath), FileBytes.read(project.databasePath + "-wal")]
        #expect(after[0] == before[0], "the database file changed")
        #expect(after[1] == before[1], "the -wal file changed")
        #expect(try project.scalar("SELECT count(*) FROM kept") == .integer(2))
    }

    @Test(arguments: [
        "ATTACH 'OTHER' AS o;\nCREATE TABLE o.t (x);\n",
        "-- migrate:up transaction:false\nATTACH 'OTHER' || '' AS o;\nCREATE TABLE o.t (x);\n",
    ])
    func aDryRunRefusesToAttach(migration: String) throws {
        let project = try CLIProject()
        try project.folder.write(
            "migrations/1_a.sql", migration.replacing("OTHER", with: project.folder.file("other.db")))
        #expect(project.run(["create"]).status == 0)
        let result = project.run(["migrate", "--dry-run"])
        #expect(result.status == 1)
        #expect(result.error.contains("error: ATTACH is not allowed in a dry run"), "\(result.error)")
        #expect(access(project.folder.file("other.db"), F_OK) != 0)
        #expect(try project.tables().isEmpty)
    }

    @Test func aHotJournalIsAClearErrorAndStaysForAWriterToRollBack() throws {
        let project = try CLIProject(["1_a.sql": "CREATE TABLE a (x);\n"])
        let staging = project.folder.file("staging.db")
        let writer = try Database(path: staging)
        try writer.execute("CREATE TABLE kept (x); PRAGMA cache_size = 1; BEGIN")
        // Enough rows to spill the one-page cache: the file then holds uncommitted pages and the journal
        // what they replaced, as a writer that stopped leaves them.
        try writer.execute(
            "INSERT INTO kept SELECT randomblob(5000) FROM (WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r "
                + "WHERE i < 200) SELECT i FROM r)")
        for suffix in ["", "-journal"] {
            try FileBytes.write(try FileBytes.read(staging + suffix), to: project.databasePath + suffix)
        }
        try writer.execute("ROLLBACK")
        let before = try FileBytes.read(project.databasePath)
        let result = project.run(["migrate", "--dry-run"])
        #expect(result.status == 1)
        #expect(result.error.contains("it holds an unfinished write (a hot journal)"), "\(result.error)")
        #expect(try FileBytes.read(project.databasePath) == before)
        #expect(FileBytes.exists(project.databasePath + "-journal"))
        #expect(project.run(["status"]).status == 0)
        #expect(try project.scalar("SELECT count(*) FROM kept") == .integer(0))
    }

    @Test func aDryRunMayStillVacuum() throws {
        let project = try CLIProject(["1_a.sql": "-- migrate:up transaction:false\nCREATE TABLE a (x);\nVACUUM;\n"])
        #expect(project.run(["create"]).status == 0)
        let result = project.run(["migrate", "--dry-run"])
        #expect(result.status == 0, "\(result.error)")
    }
}
