import CellarKit
import Glibc
import TestSupport
import Testing

/// `verify --schema` replays the migrations as a check of the schema, not as a migration of the
/// user's database: data that only seeds provide does not fail it, its failures are worded as the
/// replay's, and it writes nothing outside its in-memory database.
@Suite struct SchemaReplayCommandTests {
    /// The history: the seeds put the winery there, the second migration adds its house wine.
    private static let history = [
        "0001_wineries.sql": """
        CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE wine (id INTEGER PRIMARY KEY, winery_id INTEGER NOT NULL REFERENCES wineries (id));

        """,
        "0002_house_wine.sql": "INSERT INTO wine (id, winery_id) VALUES (1, 1);\n",
    ]

    @Test func rowsReferringToSeedRowsDoNotFailTheReplay() throws {
        let project = try CLIProject(Self.history)
        try project.folder.write("seeds/01_wineries.sql", "INSERT INTO wineries VALUES (1, 'Tenuta');\n")
        #expect(project.run(["migrate", "--to", "1"]).status == 0)
        #expect(project.run(["seed", project.folder.file("seeds/01_wineries.sql")]).status == 0)
        let migrated = project.run(["migrate"])
        #expect(migrated.status == 0, "\(migrated.error)")
        let verified = project.run(["verify", "--schema"])
        #expect(verified.status == 0, "\(verified.error)")
        #expect(verified.error.isEmpty, "\(verified.error)")
        #expect(verified.output.contains("and the schema matches them"), "\(verified.output)")
    }

    /// The replay fails (a migration that no longer replays); the database stays at version 2 and the
    /// message says so, never that it was rolled back.
    @Test func aReplayFailureIsWordedAsTheReplays() throws {
        let project = try CLIProject(["0001_a.sql": "CREATE TABLE a (x);\n"])
        #expect(project.run(["migrate"]).status == 0)
        try Database(path: project.databasePath).execute("CREATE TABLE b (y)")
        try project.folder.write("migrations/0002_b.sql", "CREATE INDEX b_y ON b (y);\n")
        try Database(path: project.databasePath).execute("CREATE INDEX b_y ON b (y)")
        #expect(project.run(["baseline", "2"]).status == 0)
        let verified = project.run(["verify", "--schema"])
        #expect(verified.status == 1)
        #expect(verified.error.hasPrefix("\(project.migrationsPath)/0002_b.sql:1:"), "\(verified.error)")
        #expect(
            verified.error.contains("error: replaying migration 0002 failed: no such table: main.b\n"), "\(verified.error)")
        #expect(!verified.error.contains("rolled back"), "\(verified.error)")
        #expect(!verified.error.contains("still at version"), "\(verified.error)")
        #expect(try project.scalar("SELECT max(version) FROM cellar_migrations") == .integer(2))
    }

    /// The migration attached a file when it was applied; replaying it must not write that file again.
    @Test(arguments: [
        "-- migrate:up transaction:false\nATTACH 'OTHER' AS o;\nCREATE TABLE o.t (x);\nDETACH o;\nCREATE TABLE kept (x);\n",
        "-- migrate:up transaction:false\nCREATE TABLE kept (x);\nVACUUM INTO 'OTHER';\n",
    ])
    func theReplayWritesNothingOutside(migration: String) throws {
        let project = try CLIProject()
        let other = project.folder.file("other.db")
        try project.folder.write("migrations/0001_attach.sql", migration.replacing("OTHER", with: other))
        #expect(project.run(["migrate"]).status == 0)
        #expect(FileBytes.exists(other))
        #expect(unlink(other) == 0)
        let verified = project.run(["verify", "--schema"])
        #expect(!FileBytes.exists(other), "the replay wrote \(other)")
        #expect(verified.status == 1)
        #expect(
            verified.error.contains(
                "error: replaying migration 0001 failed: ATTACH or VACUUM INTO is not allowed in a replay"),
            "\(verified.error)")
    }
}
