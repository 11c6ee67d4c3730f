import CellarCLI
import CellarKit
import TestSupport
import Testing

@Suite struct MigrateCommandTests {
    @Test func migrateNamesEachMigrationThenPrintsASummaryOnStandardOutput() throws {
        let project = try CLIProject(["0001_wineries.sql": createWineries])
        let result = project.run(["migrate"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 2, "\(result.output)")
        #expect(lines.first?.wholeMatch(of: /applied 0001_wineries \(\d+ ms\)/) != nil, "\(result.output)")
        #expect(lines.last?.hasPrefix("applied 1 migration in ") == true)
        #expect(result.output.hasSuffix(" ms; now at version 1\n"))
        #expect(result.error.isEmpty)
        let again = project.run(["migrate"])
        #expect(again.output == "nothing to apply; the database is at version 1\n")
        #expect(project.run(["migrate", "-q"]).output.isEmpty)
    }

    // MARK: - Errors

    @Test func syntaxErrorHasSPECsExactShape() throws {
        let project = try CLIProject(["0001_wineries.sql": createWineries, "0002_create_wine.sql": createWine])
        let result = project.run(["migrate"])
        #expect(result.status == 1)
        #expect(
            result.error == """
                \(project.migrationsPath)/0002_create_wine.sql:4:40: error: near "foreign": syntax error
                    4 |     rating integer producer_id integer foreign key references wineries(id)
                      |                                        ^
                cellar: migration 0002 rolled back; the database is still at version 1

                """)
        #expect(result.output.hasPrefix("applied 0001_wineries ("), "the migration that completed is named")
        #expect(!result.output.contains("0002"))
        #expect(try project.tables() == ["cellar_migrations", "wineries"])
    }

    @Test(arguments: [
        (["0003_a.sql": "SELECT 1;", "3_b.sql": "SELECT 2;"], "version 3 is also used by"),
        (["0001_create tables.sql": "SELECT 1;"], "file name does not fit <version>_<name>.sql"),
        (["0001_empty.sql": ""], "0001_empty.sql: error: empty file: no SQL and no comment"),
        (["0001_blank.sql": " \r\n\t\n"], "0001_blank.sql: error: empty file: no SQL and no comment"),
        (["0001_todo.sql": MigrationTemplate.text], "0001_todo.sql: error: not written yet"),
    ])
    func invalidFilesStopEverythingBeforeTheDatabaseIsCreated(files: [String: String], message: String) throws {
        let project = try CLIProject(files.merging(["0000009_fine.sql": "CREATE TABLE fine (x);"]) { $1 })
        let result = project.run(["migrate"])
        #expect(result.status == 1)
        #expect(result.error.contains(message), "\(result.error)")
        #expect(result.error.contains("\(project.migrationsPath)/"))
        #expect(!FileBytes.exists(project.databasePath))
    }

    @Test func missingMigrationsFolderIsExitOne() throws {
        let project = try CLIProject()
        let result = project.run(["migrate"])
        #expect(result.status == 1)
        #expect(
            result.error
                == "cellar: error: no folder '\(project.migrationsPath)'; point elsewhere with -m/--migrations DIR or CELLAR_MIGRATIONS\n"
        )
        #expect(!FileBytes.exists(project.databasePath))
    }

    @Test func outOfOrderIsRefusedUnlessAllowed() throws {
        let project = try CLIProject(["0001_a.sql": "CREATE TABLE a (x);", "0003_c.sql": "CREATE TABLE c (x);"])
        #expect(project.run(["migrate"]).status == 0)
        try project.folder.write("migrations/0002_b.sql", "CREATE TABLE b (x);")
        let refused = project.run(["migrate"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("0002_b.sql is older than the newest applied migration (3); pass --allow-out-of-order"))
        #expect(try project.tables() == ["a", "c", "cellar_migrations"])
        #expect(project.run(["migrate", "--allow-out-of-order"]).status == 0)
        #expect(try project.tables() == ["a", "b", "c", "cellar_migrations"])
    }

    @Test func dryRunReportsAndLeavesTheFileByteForByte() throws {
        let project = try CLIProject(["0001_wineries.sql": createWineries])
        #expect(project.run(["migrate"]).status == 0)
        try project.folder.write(
            "migrations/0002_data.sql",
            "INSERT INTO wineries (name) VALUES ('a'), ('b');\nCREATE INDEX by_name ON wineries (name);")
        let before = SHA256.hexDigest(of: try FileBytes.read(project.databasePath))
        let result = project.run(["migrate", "--dry-run"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("0002_data: 2 statements, 2 rows changed, created index by_name, "))
        #expect(result.output.contains("dry run: would apply 1 migration ("))
        #expect(SHA256.hexDigest(of: try FileBytes.read(project.databasePath)) == before)
    }

    @Test func dryRunDoesNotCreateAMissingDatabase() throws {
        let project = try CLIProject(["0001_wineries.sql": createWineries])
        let result = project.run(["migrate", "--dry-run"])
        #expect(result.status == 0)
        #expect(result.output.contains("created table wineries"))
        #expect(!FileBytes.exists(project.databasePath))
    }

    @Test func allOrNothingWithTransactionFalseIsRefused() throws {
        let project = try CLIProject([
            "0001_a.sql": "CREATE TABLE a (x);", "0002_v.sql": "-- migrate:up transaction:false\nVACUUM;",
        ])
        let result = project.run(["migrate", "--all-or-nothing"])
        #expect(result.status == 1)
        #expect(result.error.contains("0002_v.sql: error: runs with transaction:false, so it cannot be part of --all-or-nothing"))
        #expect(!FileBytes.exists(project.databasePath))
    }

    @Test func commitInsideAMigrationIsRefusedWithTheReason() throws {
        let project = try CLIProject(["0001_a.sql": "CREATE TABLE a (x);\nCOMMIT;\n"])
        let result = project.run(["migrate"])
        #expect(result.status == 1)
        #expect(result.error.contains("0001_a.sql:2:1: error: COMMIT is not allowed here"))
        #expect(result.error.contains("cellar: migration 0001 rolled back; the database is still at version 0"))
        #expect(try project.tables().isEmpty)
    }

    @Test func foreignKeyViolationNamesTableAndRowidAndRollsBack() throws {
        let project = try CLIProject([
            "0001_wineries.sql": createWineries,
            "0002_wine.sql": "CREATE TABLE wine (id INTEGER PRIMARY KEY, winery_id INTEGER REFERENCES wineries (id));",
            "0003_orphan.sql": "INSERT INTO wineries VALUES (1, 'Ridge');\nINSERT INTO wine VALUES (7, 42);\n",
        ])
        let result = project.run(["migrate"])
        #expect(result.status == 1)
        #expect(
            result.error == """
                \(project.migrationsPath)/0003_orphan.sql: error: foreign key violation: wine rowid 7 has no parent row in wineries
                cellar: migration 0003 rolled back; the database is still at version 2

                """)
        #expect(try project.scalar("SELECT count(*) FROM wineries") == .integer(0))
        #expect(try project.scalar("SELECT max(version) FROM cellar_migrations") == .integer(2))
    }

    @Test func lockedDatabaseFailsAfterTheBusyTimeout() throws {
        let project = try CLIProject(["0001_a.sql": "CREATE TABLE a (x);"])
        let holder = try Database(path: project.databasePath)
        try holder.execute("BEGIN IMMEDIATE")
        let result = project.run(["migrate", "--busy-timeout", "100"])
        #expect(result.status == 1)
        #expect(
            result.error
                == "cellar: error: database '\(project.databasePath)' is locked by another connection (gave up after 100 ms); nothing was changed; raise --busy-timeout to wait longer\n"
        )
        try holder.execute("ROLLBACK")
        #expect(try project.tables().isEmpty)
    }

    // MARK: - Progress

    @Test func progressShowsOnATerminalOnlyForLongMigrations() throws {
        let slow =
            "CREATE TABLE n (x);\nWITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 8000000) SELECT count(*) FROM c;"
        let project = try CLIProject(["0001_slow.sql": slow])
        let result = project.run(["migrate"], isErrorTerminal: true)
        #expect(result.status == 0)
        #expect(result.error.contains("0001_slow: 1."))
        #expect(result.error.hasSuffix("\r\u{1B}[K"), "the progress line is erased once it is done")
        #expect(result.output.hasPrefix("applied 0001_slow ("), "\(result.output)")
        let quiet = try CLIProject(["0001_slow.sql": slow]).run(["migrate", "--quiet"], isErrorTerminal: true)
        #expect(quiet.status == 0)
        #expect(quiet.error.isEmpty)
        #expect(quiet.output.isEmpty)
    }
}
