import CellarKit
import TestSupport
import Testing

/// A dbmate project as it is: migrations in `db/migrations/`, `DATABASE_URL` in `.env`.
@Suite struct DbmateLayoutEndToEndTests {
    static func dbmateProject() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try folder.write(
            "db/migrations/20261201000001_visits.sql",
            "-- migrate:up\nCREATE TABLE visits (n INTEGER);\n-- migrate:down\nDROP TABLE visits;\n")
        try folder.write(".env", "# dbmate reads this\nexport DATABASE_URL=\"sqlite:db/app.sqlite3\" # the app's\n")
        return folder
    }

    @Test func dbMigrationsIsUsedWithoutAMigrationsFolderAndSaidOnce() throws {
        let folder = try Self.dbmateProject()
        let result = try Cellar.run(["migrate"], in: folder.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.error == "cellar: no folder 'migrations' here; using dbmate's 'db/migrations'\n")
        #expect(result.output.hasPrefix("applied 20261201000001_visits ("), "\(result)")
        #expect(try tableNames(folder.file("db/app.sqlite3")) == ["cellar_migrations", "visits"])
        #expect(try Cellar.run(["migrate", "-q"], in: folder.path).error.isEmpty)
        // A migrations folder, or one named, wins; the note is not said.
        try folder.write("migrations/1_other.sql", "CREATE TABLE other (x);")
        let own = try Cellar.run(["status"], in: folder.path)
        #expect(!own.error.contains("db/migrations"), "\(own)")
        #expect(own.output.contains("pending  1 other"), "\(own)")
    }

    @Test func dotEnvGivesTheDatabaseAndTheEnvironmentAndFlagsWin() throws {
        let folder = try Self.dbmateProject()
        #expect(try Cellar.run(["migrate"], in: folder.path).status == 0)
        #expect(FileBytes.exists(folder.file("db/app.sqlite3")))
        let fromEnvironment = try Cellar.run(
            ["migrate"], in: folder.path, environment: ["DATABASE_URL": "sqlite:other.sqlite3"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment)")
        #expect(FileBytes.exists(folder.file("other.sqlite3")))
        let fromFlag = try Cellar.run(["migrate", "-d", "flag.sqlite3"], in: folder.path)
        #expect(fromFlag.status == 0, "\(fromFlag)")
        #expect(FileBytes.exists(folder.file("flag.sqlite3")))
        // CELLAR_* settings are read from it too; other variables are not.
        try folder.write(".env", "CELLAR_DATABASE='quoted name.db'\nHOME=/nowhere\n")
        #expect(try Cellar.run(["migrate"], in: folder.path).status == 0)
        #expect(FileBytes.exists(folder.file("quoted name.db")))
    }
}
