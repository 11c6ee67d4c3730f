import CellarCLI
import CellarKit
import TestSupport
import Testing

@Suite struct MigrationCommandsTests {
    private let three = [
        "0001_wineries.sql": createWineries,
        "0002_wine.sql":
            "-- migrate:up\nCREATE TABLE wine (id INTEGER PRIMARY KEY, winery_id INTEGER REFERENCES wineries (id));\n-- migrate:down\nDROP TABLE wine;\n",
        "0003_index.sql": "CREATE INDEX wine_by_winery ON wine (winery_id);\n",
    ]

    @Test func setupAppliesMigrationsThenSeedsAndIsIdempotent() throws {
        let project = try CLIProject(three)
        try project.folder.write("seeds/0001_wineries.sql", "INSERT INTO wineries (name) VALUES ('Ridge'), ('Musar');")
        let first = project.run(["setup"])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.contains("applied 0003_index (") && first.output.contains("\napplied 3 migrations and 1 seed in "))
        #expect(first.output.hasSuffix("; now at version 3\n"))
        let second = project.run(["setup"])
        #expect(second.output == "nothing to do; the database is at version 3 and every seed is applied\n")
        #expect(try project.scalar("SELECT count(*) FROM wineries") == .integer(2))
    }

    @Test func setupWithANamedMissingSeedsFolderIsAnError() throws {
        let project = try CLIProject(three)
        let result = project.run(["setup"], environment: [:])
        #expect(result.status == 1)
        #expect(result.error.contains("no folder '\(project.folder.file("seeds"))'"))
        #expect(!FileBytes.exists(project.databasePath))
    }

    @Test func rollbackStepsAndToAndRefusalWithoutDown() throws {
        let project = try CLIProject(three)
        #expect(project.run(["migrate"]).status == 0)
        let refused = project.run(["rollback"])
        #expect(refused.status == 1)
        #expect(
            refused.error
                == "\(project.migrationsPath)/0003_index.sql: error: no down section ('-- migrate:down'), so it cannot be rolled back\n"
        )
        #expect(try project.scalar("SELECT max(version) FROM cellar_migrations") == .integer(3))
        try project.folder.write(
            "migrations/0003_index.sql",
            "-- migrate:up\nCREATE INDEX wine_by_winery ON wine (winery_id);\n-- migrate:down\nDROP INDEX wine_by_winery;\n")
        let one = project.run(["rollback"])
        #expect(one.output.hasPrefix("rolled back 0003_index\nrolled back 1 migration in "), "\(one.output)")
        #expect(one.output.hasSuffix("; now at version 2\n"))
        #expect(project.run(["rollback", "--to", "0"]).status == 0)
        #expect(try project.tables() == ["cellar_migrations"])
        #expect(project.run(["rollback", "--steps", "2", "--to", "1"]).status == 2)
        #expect(project.run(["rollback", "--steps", "zero"]).status == 2)
    }

    // MARK: - Status, verify, accept

    @Test func statusTextJSONAndExitCode() throws {
        let project = try CLIProject(three)
        #expect(project.run(["migrate", "--to", "2"]).status == 0)
        let text = project.run(["status"])
        #expect(text.status == 0)
        #expect(text.output.hasPrefix("database \(project.databasePath) at version 2\nmigrations:\n  applied  0001 wineries"))
        #expect(text.output.contains("\n  pending  0003 index\n"))
        #expect(project.run(["status", "--exit-code"]).status == 3)
        let json = project.run(["status", "--format", "json"])
        let checksum = try MigrationSource.folder(project.migrationsPath).load()[2].checksum
        #expect(
            json.output.hasPrefix(
                "{\"database\": \"\(project.databasePath)\", \"version\": 2, \"migrations\": [{\"version\": 1, \"name\": \"wineries\", \"state\": \"applied\", \"checksum\": \""
            ))
        #expect(
            json.output.hasSuffix(
                "{\"version\": 3, \"name\": \"index\", \"state\": \"pending\", \"checksum\": \"\(checksum)\", \"applied_at\": null, \"duration_ms\": null}], \"seeds\": []}\n"
            ))
        #expect(project.run(["migrate"]).status == 0)
        #expect(project.run(["status", "--exit-code"]).status == 0)
        #expect(project.run(["status", "--format", "yaml"]).status == 2)
    }

    @Test func statusMarksTransactionFalseMigrationsAsNotAtomic() throws {
        let project = try CLIProject(["0001_vacuum.sql": "-- migrate:up transaction:false\nVACUUM;\n"])
        #expect(project.run(["migrate"]).status == 0)
        #expect(project.run(["status"]).output.contains("applied  0001 vacuum  "))
        #expect(project.run(["status"]).output.contains("[transaction:false: not atomic]"))
    }

    @Test func statusOfAMissingDatabaseShowsEverythingPendingWithoutCreatingIt() throws {
        let project = try CLIProject(three)
        let result = project.run(["status", "--format", "json"])
        #expect(result.status == 0)
        #expect(result.output.contains("\"version\": 0"))
        #expect(!FileBytes.exists(project.databasePath))
    }

    @Test func verifyAndAcceptAfterAHarmlessEdit() throws {
        let project = try CLIProject(three)
        #expect(project.run(["migrate"]).status == 0)
        #expect(project.run(["verify"]).output == "verified 3 applied migrations: all match their files\n")
        try project.folder.write(
            "migrations/0003_index.sql",
            "-- the index speeds up lookups by winery\nCREATE INDEX wine_by_winery ON wine (winery_id);\n")
        let failed = project.run(["verify"])
        #expect(failed.status == 1)
        #expect(failed.error.contains("0003_index.sql: error: migration 3 changed after it was applied"))
        #expect(project.run(["status"]).output.contains("changed  0003 index"))
        let migrate = project.run(["migrate"])
        #expect(migrate.status == 0)
        #expect(
            migrate.error.contains(
                "cellar: warning: \(project.migrationsPath)/0003_index.sql: migration 3 changed after it was applied"))
        let accepted = project.run(["accept", "3"])
        #expect(accepted.output == "accepted the current checksum of 0003_index\n")
        #expect(project.run(["verify"]).status == 0)
        #expect(project.run(["accept", "0003"]).output == "0003_index already matches its recorded checksum; nothing changed\n")
        #expect(project.run(["accept", "9"]).status == 1)
        #expect(project.run(["accept", "x"]).status == 2)
    }

    @Test func verifyReportsAMissingFile() throws {
        let project = try CLIProject(three)
        #expect(project.run(["migrate"]).status == 0)
        TemporaryDirectory.removeTree(project.folder.file("migrations/0003_index.sql"))
        let result = project.run(["verify"])
        #expect(result.status == 1)
        #expect(result.error.contains("migration 3 (index) is recorded as applied but its file is missing"))
    }

    // MARK: - new, baseline, seed, schema

    @Test func newNumbersTheNextMigrationAndItsTemplateIsAnEmptyMigration() throws {
        let project = try CLIProject(three)
        let created = project.run(["new", "add_vintage"])
        #expect(created.status == 0)
        #expect(created.output == "\(project.migrationsPath)/0004_add_vintage.sql\n")
        let text = try FileBytes.readText(project.folder.file("migrations/0004_add_vintage.sql"))
        #expect(text.contains("-- migrate:up\n") && text.contains("-- migrate:down\n"))
        #expect(project.run(["migrate", "--to", "3"]).status == 0)
        let status = project.run(["status", "--exit-code"])
        #expect(status.status == 3)
        #expect(
            status.output.contains("pending  0004 add_vintage")
                && status.output.contains("[not written yet: write its up section"))
        let applied = project.run(["migrate"])
        #expect(applied.status == 1)
        #expect(applied.error.contains("0004_add_vintage.sql: error: not written yet"))
        #expect(project.run(["new", "bad name"]).status == 2)
        let stamped = project.run(["new", "stamp", "--timestamp"])
        #expect(stamped.output.firstMatch(of: #/\/20\d{12}_stamp\.sql\n$/#) != nil)
    }

    @Test func newCreatesTheFolderAndStartsAtOne() throws {
        let project = try CLIProject()
        #expect(project.run(["new", "first"]).output == "\(project.migrationsPath)/0001_first.sql\n")
    }

    @Test func baselineRecordsWithoutRunning() throws {
        let project = try CLIProject(three)
        try Database(path: project.databasePath).execute("CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        let result = project.run(["baseline", "1"])
        #expect(result.output == "recorded 1 migration as applied without running them; now at version 1\n")
        #expect(project.run(["migrate"]).status == 0)
        #expect(try project.tables() == ["cellar_migrations", "wine", "wineries"])
    }

    @Test func seedCommandRunsNamedFilesAndForce() throws {
        let project = try CLIProject(three)
        #expect(project.run(["migrate"]).status == 0)
        let path = try project.folder.write("seeds/0001_w.sql", "INSERT INTO wineries (name) VALUES ('x');")
        #expect(project.run(["seed", path]).output.hasPrefix("applied 1 seed in "))
        let skipped = project.run(["seed", path])
        #expect(skipped.output.contains("applied 0 seeds in ") && skipped.output.hasSuffix("; 1 already applied\n"))
        #expect(skipped.error.contains("already applied (--force runs it again)"))
        #expect(project.run(["seed", path, "--force"]).status == 0)
        #expect(try project.scalar("SELECT count(*) FROM wineries") == .integer(2))
        #expect(try project.scalar("SELECT name FROM cellar_seeds") == .text("0001_w.sql"))
        #expect(project.run(["seed", project.folder.file("seeds/none.sql")]).status == 1)
    }

    @Test func schemaPrintsCreateStatementsInAStableOrderWithoutCellarTables() throws {
        let project = try CLIProject(three)
        #expect(project.run(["migrate"]).status == 0)
        let result = project.run(["schema"])
        #expect(
            result.output == """
                CREATE TABLE wine (id INTEGER PRIMARY KEY, winery_id INTEGER REFERENCES wineries (id));
                CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE INDEX wine_by_winery ON wine (winery_id);

                """)
    }

    @Test func schemaWritesLFEvenForTablesCreatedFromACRLFScript() throws {
        let project = try CLIProject(["0001_crlf.sql": "CREATE TABLE t (\r\n  a INTEGER\r\n);\r\n"])
        #expect(project.run(["migrate"]).status == 0)
        #expect(try project.scalar("SELECT instr(sql, char(13)) > 0 FROM sqlite_schema WHERE name = 't'") == .integer(1))
        #expect(project.run(["schema"]).output == "CREATE TABLE t (\n  a INTEGER\n);\n")
    }

    @Test func databaseProblemsAreOneClearLine() throws {
        let project = try CLIProject(three)
        try project.folder.write("notadb.sqlite", String(repeating: "this is not a database ", count: 100))
        TemporaryDirectory.makeFolders(project.folder.file("adir"))
        for (path, message) in [
            (project.folder.file("adir"), "is a directory, not a database file"),
            (project.folder.file("notadb.sqlite"), "file is not a database"),
        ] {
            let run = InProcessRun(["migrate", "-d", path, "-m", project.migrationsPath])
            #expect(run.status == 1)
            #expect(run.error.contains(message), "\(run.error)")
            #expect(run.error.split(separator: "\n").count == 1)
        }
        #expect(try FileBytes.readText(project.folder.file("notadb.sqlite")).hasPrefix("this is not a database"))
    }
}
