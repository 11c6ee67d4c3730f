import CellarKit
import TestSupport
import Testing

/// `verify --schema`: the applied migrations replayed in memory against the live schema.
@Suite struct SchemaDriftCommandTests {
    static let migrations = [
        "0001_wine.sql":
            "CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\nCREATE INDEX wine_name ON wine (name);\n",
        "0002_views.sql": """
        CREATE VIEW named AS SELECT name FROM wine WHERE name <> '';
        CREATE TABLE log (entry TEXT);
        CREATE TRIGGER wine_log AFTER INSERT ON wine BEGIN INSERT INTO log VALUES (new.name); END;

        """,
    ]

    static func project() throws -> CLIProject {
        let project = try CLIProject(migrations)
        #expect(project.run(["migrate"]).status == 0)
        return project
    }

    func change(_ project: CLIProject, _ sql: String) throws {
        try Database(path: project.databasePath).execute(sql)
    }

    @Test(arguments: [
        ("CREATE INDEX idx_x ON wine (id, name)", "drift: index idx_x is in the database but no migration creates it\n"),
        (
            "DROP VIEW named; CREATE VIEW named AS SELECT upper(name) FROM wine",
            "drift: view named is defined differently from what the migrations create\n"
        ),
        ("DROP TRIGGER wine_log", "drift: trigger wine_log is created by the migrations but is not in the database\n"),
        ("ALTER TABLE wine ADD COLUMN notes TEXT", "drift: table wine has column notes that no migration creates\n"),
        (
            "DROP INDEX wine_name; DROP TABLE log",
            "drift: table log is created by the migrations but is not in the database\n"
                + "drift: index wine_name is created by the migrations but is not in the database\n"
        ),
    ])
    func driftIsReportedOneLineEach(change sql: String, report: String) throws {
        let project = try Self.project()
        try change(project, sql)
        let result = project.run(["verify", "--schema"])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix(report), "\(result.error)")
        #expect(result.error.hasSuffix("from what the migrations create\n"))
    }

    @Test func respellingsAreNotDrift() throws {
        let project = try Self.project()
        try change(project, "DROP VIEW named; CREATE VIEW \"NAMED\"  AS\n  SELECT [name] FROM \"wine\" WHERE name <> ''")
        let result = project.run(["verify", "--schema"])
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "verified 2 applied migrations: all match their files and the schema matches them\n")
    }

    @Test func baselinedMigrationsAreReplayedToo() throws {
        let project = try CLIProject(Self.migrations)
        try change(project, Self.migrations["0001_wine.sql"]!)
        #expect(project.run(["baseline", "1"]).status == 0)
        #expect(project.run(["migrate"]).status == 0)
        #expect(project.run(["verify", "--schema"]).status == 0)
        try change(project, "DROP INDEX wine_name")
        let result = project.run(["verify", "--schema"])
        #expect(result.status == 1)
        #expect(result.error.contains("drift: index wine_name is created by the migrations but is not in the database"))
    }

    @Test func withoutTheFlagTheSchemaIsNotCompared() throws {
        let project = try Self.project()
        try change(project, "CREATE INDEX idx_x ON wine (id, name)")
        #expect(project.run(["verify"]).status == 0)
    }
}

/// `migrate --dry-run` names the objects each migration creates, drops and redefines.
@Suite struct DryRunSchemaReportTests {
    @Test func eachMigrationNamesTheObjectsItChangesWithColumnDeltas() throws {
        let project = try SchemaDriftCommandTests.project()
        try project.folder.write(
            "migrations/0003_more.sql",
            "ALTER TABLE wine ADD COLUMN notes TEXT;\nCREATE VIEW recent AS SELECT 1;\nDROP TRIGGER wine_log;\n")
        let result = project.run(["migrate", "--dry-run"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.output.hasPrefix(
                "0003_more: 3 statements, 0 rows changed, created view recent, dropped trigger wine_log, redefined table wine (+notes), "
            ))
        #expect(try project.scalar("SELECT count(*) FROM pragma_table_info('wine') WHERE name = 'notes'") == .integer(0))
    }
}
