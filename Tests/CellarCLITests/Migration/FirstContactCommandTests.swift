import CellarKit
import TestSupport
import Testing

/// The habits users bring from dbmate and goose: each migration named as it runs, `redo`, a database
/// path that does not exist said so, and `setup` honest about a changed seed.
@Suite struct FirstContactCommandTests {
    static let counted = [
        "0001_visits.sql": "-- migrate:up\nCREATE TABLE visits (n INTEGER);\n-- migrate:down\nDROP TABLE visits;\n",
        "0002_add_rating.sql":
            "-- migrate:up\nINSERT INTO visits VALUES (2);\n-- migrate:down\nDELETE FROM visits WHERE n = 2;\n",
    ]

    @Test func rollbackNamesEachMigrationThenTheSummaryAndQuietPrintsNothing() throws {
        let project = try CLIProject(Self.counted)
        #expect(project.run(["migrate"]).status == 0)
        let undone = project.run(["rollback", "--to", "0"])
        #expect(undone.status == 0, "\(undone.error)")
        let lines = undone.output.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(2)) == ["rolled back 0002_add_rating", "rolled back 0001_visits"], "\(undone.output)")
        #expect(lines.last?.hasPrefix("rolled back 2 migrations in ") == true)
        let quiet = project.run(["migrate", "-q"])
        #expect(quiet.status == 0)
        #expect(quiet.output.isEmpty && quiet.error.isEmpty, "\(quiet)")
    }

    @Test func redoRollsBackTheNewestMigrationAndAppliesItAgain() throws {
        let project = try CLIProject(Self.counted)
        #expect(project.run(["migrate"]).status == 0)
        let redone = project.run(["redo"])
        #expect(redone.status == 0, "\(redone.error)")
        let lines = redone.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(redone.output)")
        #expect(lines.first == "rolled back 0002_add_rating")
        #expect(lines.dropFirst().first?.hasPrefix("applied 0002_add_rating (") == true)
        #expect(lines.last?.hasPrefix("redid 0002_add_rating in ") == true)
        #expect(lines.last?.hasSuffix("; now at version 2") == true)
        // The down section ran, then the up section: one row, not two.
        #expect(try project.scalar("SELECT count(*) FROM visits") == .integer(1))
        #expect(try project.scalar("SELECT count(*) FROM cellar_migrations") == .integer(2))
    }

    @Test func redoWithNothingAppliedChangesNothing() throws {
        let project = try CLIProject(Self.counted)
        #expect(project.run(["migrate", "--to", "1"]).status == 0)
        #expect(project.run(["rollback"]).status == 0)
        let redone = project.run(["redo"])
        #expect(redone.status == 0)
        #expect(redone.output == "nothing to redo; the database is at version 0\n")
    }

    @Test func redoOfAMigrationWithoutDownSectionIsRefusedAndChangesNothing() throws {
        let project = try CLIProject(["0001_visits.sql": "CREATE TABLE visits (n INTEGER);"])
        #expect(project.run(["migrate"]).status == 0)
        let redone = project.run(["redo"])
        #expect(redone.status == 1)
        #expect(redone.error.contains("no down section"), "\(redone.error)")
        #expect(try project.scalar("SELECT count(*) FROM cellar_migrations") == .integer(1))
    }

    @Test func statusOfAPathThatDoesNotExistSaysSoAndCreatesNothing() throws {
        let project = try CLIProject(Self.counted)
        let status = project.run(["status"])
        #expect(status.status == 0)
        let lines = status.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "database \(project.databasePath) does not exist yet", "\(status.output)")
        #expect(lines.filter { $0.hasPrefix("  pending ") }.count == 2, "\(status.output)")
        #expect(!FileBytes.exists(project.databasePath))
        #expect(project.run(["migrate"]).status == 0)
        #expect(project.run(["status"]).output.hasPrefix("database \(project.databasePath) at version 2\n"))
    }

    @Test func setupWithAChangedSeedDoesNotSayEverySeedIsApplied() throws {
        let project = try CLIProject(Self.counted)
        try project.folder.write("seeds/0001_visits.sql", "INSERT INTO visits VALUES (10);")
        #expect(project.run(["setup"]).status == 0)
        #expect(project.run(["setup"]).output.hasSuffix("and every seed is applied\n"))
        try project.folder.write("seeds/0001_visits.sql", "INSERT INTO visits VALUES (11);")
        let again = project.run(["setup"])
        #expect(again.status == 0)
        #expect(again.error.contains("seed changed after it was applied"), "\(again.error)")
        #expect(!again.output.contains("every seed is applied"), "\(again.output)")
        #expect(
            again.output == "nothing to do; the database is at version 2 and 1 seed changed since applied, not run again\n")
    }
}
