import CellarKit
import Glibc
import TestSupport
import Testing

@Suite struct MigratorBookkeepingTests {
    @Test func rollbackUndoesTheNewestFirstAndDeletesLedgerRows() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries, "2_wine.sql": wine])
        let database = try project.open()
        try project.migrator(database).migrate()
        let outcomes = try project.migrator(database).rollback()
        #expect(outcomes.map(\.migration.version) == [2])
        #expect(try project.tables(database) == ["cellar_migrations", "wineries"])
        #expect(try project.versions(database) == [1])
        try project.migrator(database).migrate()
        try project.migrator(database).rollback(.version(0))
        #expect(try project.tables(database) == ["cellar_migrations"])
        #expect(try project.versions(database).isEmpty)
    }

    @Test func rollbackToKeepsThatVersion() throws {
        let project = try MigrationProject([
            "1_wineries.sql": wineries, "2_wine.sql": wine,
            "3_c.sql": "-- migrate:up\nCREATE TABLE c (x);\n-- migrate:down\nDROP TABLE c;",
        ])
        let database = try project.open()
        try project.migrator(database).migrate()
        try project.migrator(database).rollback(.version(1))
        #expect(try project.versions(database) == [1])
        #expect(throws: MigrationError.self) { try project.migrator(database).rollback(.version(2)) }
    }

    @Test func rollbackRefusesWithoutADownSectionAndChangesNothing() throws {
        let project = try MigrationProject([
            "1_wineries.sql": wineries, "2_nodown.sql": "CREATE TABLE c (x);\n",
            "3_c.sql": "-- migrate:up\nCREATE TABLE d (x);\n-- migrate:down\nDROP TABLE d;",
        ])
        let database = try project.open()
        try project.migrator(database).migrate()
        #expect {
            try project.migrator(database).rollback(.steps(2))
        } throws: { error in
            guard case .noDownSection(let path) = error as? MigrationError else { return false }
            return path.hasSuffix("2_nodown.sql")
        }
        #expect(try project.versions(database) == [1, 2, 3])
        #expect(try project.tables(database).contains("d"))
    }

    @Test func failingDownSectionRollsBackItsTransaction() throws {
        let project = try MigrationProject([
            "1_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\nDROP TABLE nonexistent;\n"
        ])
        let database = try project.open()
        try project.migrator(database).migrate()
        #expect {
            try project.migrator(database).rollback()
        } throws: { error in
            let diagnostic = (error as? MigrationError)?.diagnostic
            return diagnostic?.location?.line == 5
                && diagnostic?.notes == ["the rollback of migration 1 rolled back; the database is still at version 1"]
        }
        #expect(try project.tables(database).contains("a"))
        #expect(try project.versions(database) == [1])
    }

    @Test func statusVerifyAndAcceptTrackChangedAndMissingFiles() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries, "2_wine.sql": wine, "3_c.sql": "CREATE TABLE c (x);"])
        let database = try project.open()
        try project.migrator(database).migrate(Migrator.Options(target: 2))
        #expect(try project.migrator(database).status().map(\.state) == [.applied, .applied, .pending])
        #expect(try project.migrator(database).verify().isEmpty)
        try project.folder.write("migrations/1_wineries.sql", wineries.replacing("NOT NULL", with: "NOT NULL DEFAULT ''"))
        unlink(project.folder.file("migrations/2_wine.sql"))
        let status = try project.migrator(database).status()
        #expect(status.map(\.state) == [.changed, .missing, .pending])
        #expect(status[1].name == "wine")
        let problems = try project.migrator(database).verify()
        #expect(problems.count == 2)
        #expect(try project.migrator(database).accept(version: 1))
        #expect(try !project.migrator(database).accept(version: 1))
        #expect(try project.migrator(database).status().map(\.state) == [.applied, .missing, .pending])
        #expect(throws: MigrationError.self) { try project.migrator(database).accept(version: 3) }
    }

    @Test func baselineRecordsWithoutRunning() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries, "2_wine.sql": wine, "3_c.sql": "CREATE TABLE c (x);"])
        let database = try project.open()
        try database.execute("CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        let recorded = try project.migrator(database).baseline(through: 1)
        #expect(recorded.map(\.version) == [1])
        #expect(try project.migrator(database).status().first?.state == .applied)
        try project.migrator(database).migrate()
        #expect(try project.versions(database) == [1, 2, 3])
        #expect(throws: MigrationError.self) { try project.migrator(database).baseline(through: 7) }
    }

    @Test func planRunsOnACopyAndReportsWhatEachMigrationDoes() throws {
        let project = try MigrationProject([
            "1_wineries.sql": wineries, "2_wine.sql": wine,
            "3_data.sql": "INSERT INTO wineries VALUES (1, 'a'), (2, 'b');\nCREATE INDEX w ON wineries (name);\nDROP TABLE wine;",
        ])
        let database = try project.open()
        try project.migrator(database).migrate(Migrator.Options(target: 1))
        let before = try FileBytes.read(project.databasePath)
        let outcomes = try project.migrator(database).plan()
        #expect(try FileBytes.read(project.databasePath) == before)
        #expect(try project.versions(database) == [1])
        #expect(outcomes.map(\.migration.version) == [2, 3])
        #expect(outcomes[1].statementCount == 3)
        #expect(outcomes[1].changedRows == 2)
        #expect(outcomes[0].schemaChanges?.created == ["table wine"])
        #expect(outcomes[1].schemaChanges?.created == ["index w"])
        #expect(outcomes[1].schemaChanges?.dropped == ["table wine"])
    }
}
