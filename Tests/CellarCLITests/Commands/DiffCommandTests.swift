import CellarKit
import Glibc
import TestSupport
import Testing

/// `cellar diff` and `cellar new NAME --from-schema`: the plan between the migrations folder, a
/// database or a schema file, its refusals, and the migration written from it.
@Suite struct DiffCommandTests {
    static let initial = """
        -- migrate:up
        CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER);
        CREATE INDEX wines_by_rating ON wines (rating);
        CREATE TABLE tastings (id INTEGER PRIMARY KEY, wine_id INTEGER NOT NULL REFERENCES wines (id) ON DELETE CASCADE, note TEXT);
        CREATE TRIGGER wines_touch AFTER UPDATE ON wines BEGIN UPDATE tastings SET note = note WHERE wine_id = new.id; END;
        -- migrate:down
        DROP TABLE tastings;
        DROP TABLE wines;

        """

    static let desired = """
        CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating REAL);
        CREATE INDEX wines_by_rating ON wines (rating);
        CREATE TABLE tastings (id INTEGER PRIMARY KEY, wine_id INTEGER NOT NULL REFERENCES wines (id) ON DELETE CASCADE, note TEXT);
        CREATE TRIGGER wines_touch AFTER UPDATE ON wines BEGIN UPDATE tastings SET note = note WHERE wine_id = new.id; END;

        """

    /// A project with the first migration and `schema` as `schema.sql` beside the migrations folder.
    static func project(schema: String = desired) throws -> CLIProject {
        let project = try CLIProject(["0001_init.sql": initial])
        _ = try project.folder.write("schema.sql", schema)
        return project
    }

    static func seed(_ project: CLIProject) throws {
        #expect(project.run(["migrate", "-q"]).status == 0)
        let database = try Database(path: project.databasePath)
        try database.execute(
            "INSERT INTO wines (name, rating) VALUES ('Barolo', 4), ('Rioja', 3); INSERT INTO tastings (wine_id, note) VALUES (1, 'a'), (1, 'b'), (2, 'c')"
        )
    }

    @Test func plansFromTheMigrationsToTheSchemaFileByDefault() throws {
        let project = try Self.project()
        let run = project.run(["diff"])
        #expect(run.status == 0, "\(run)")
        #expect(run.output.contains("-- rebuild wines: rating INTEGER → REAL; keeps 1 index, 1 trigger\n"))
        #expect(
            run.output.contains(
                "INSERT INTO \"new_wines\" (\"id\", \"name\", \"rating\") SELECT \"id\", \"name\", \"rating\" FROM \"wines\";"))
        #expect(run.output.contains("cellar migrate turns them off"))
        #expect(!FileManagerless.exists(project.databasePath), "diff touched no database")
        #expect(project.run(["diff", "--exit-code"]).status == 3)
    }

    @Test func noDifferenceIsNoOutputAndExitZero() throws {
        let project = try Self.project(
            schema: Self.initial.replacing("-- migrate:up\n", with: "").components(before: "-- migrate:down"))
        let run = project.run(["diff", "--exit-code"])
        #expect(run.status == 0, "\(run)")
        #expect(run.output.isEmpty)
    }

    @Test func schemaFileThatDoesNotParseIsLocated() throws {
        let project = try Self.project(schema: "CREATE TABLE a (x);\nCREATE TABLE b (y,\n  z REFERENCES nope(,\n);\n")
        let run = project.run(["diff"])
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("\(project.folder.file("schema.sql")):3:21: error: near \",\": syntax error"), "\(run)")
        #expect(run.output.isEmpty)
    }

    @Test func missingSchemaFileIsNamed() throws {
        let project = try CLIProject(["0001_init.sql": Self.initial])
        let run = project.run(["diff", "--schema-file", project.folder.file("none.sql")])
        #expect(run.status == 1)
        #expect(run.error.contains("no schema file '\(project.folder.file("none.sql"))'"), "\(run)")
        let fromEnvironment = project.run(["diff"], environment: ["CELLAR_SCHEMA_FILE": project.folder.file("env.sql")])
        #expect(fromEnvironment.error.contains("no schema file '\(project.folder.file("env.sql"))'"), "\(fromEnvironment)")
    }

    @Test func dropIsRefusedNamingEachAndTheRenameThatKeepsTheData() throws {
        let project = try Self.project(
            schema: Self.desired.replacing("CREATE TABLE tastings (", with: "CREATE TABLE notes (").replacing(
                "name TEXT NOT NULL, rating REAL", with: "title TEXT NOT NULL, rating REAL"))
        let refused = project.run(["diff"])
        #expect(refused.status == 1)
        #expect(
            refused.error
                == "cellar: error: the plan would drop table tastings, column wines.name and the data in them; to keep the data, "
                + "rename instead: --rename wines.name=title, --rename tastings=notes; pass --allow-drop to drop them\n",
            "\(refused)")
        #expect(refused.output.isEmpty)
        let renamed = project.run(["diff", "--rename", "tastings=notes", "--rename", "wines.name=title"])
        #expect(renamed.status == 0, "\(renamed)")
        #expect(renamed.output.contains("ALTER TABLE \"tastings\" RENAME TO \"notes\";"))
        #expect(renamed.output.contains("ALTER TABLE \"wines\" RENAME COLUMN \"name\" TO \"title\";"))
        let notNull = project.run(["diff", "--allow-drop"])
        #expect(notNull.status == 1)
        #expect(notNull.error.contains("column wines.title is new, NOT NULL and has no default"), "\(notNull)")
        let dropped = project.run(["diff", "--allow-drop", "--rename", "wines.name=title"])
        #expect(dropped.status == 0, "\(dropped)")
        #expect(
            dropped.output.contains("-- drop table tastings and its rows: not in the desired schema\nDROP TABLE \"tastings\";"))
    }

    @Test func againstADatabaseReportsRowsAndChangesNothing() throws {
        let project = try Self.project()
        try Self.seed(project)
        let before = try FileBytes.read(project.databasePath)
        let run = project.run(["diff", "--from", project.databasePath, "--against", project.databasePath])
        #expect(run.status == 0, "\(run)")
        #expect(run.error.contains("rehearsed on \(project.databasePath): tastings: 3 → 3 rows"), "\(run)")
        #expect(run.error.contains("rehearsed on \(project.databasePath): wines: 2 → 2 rows"), "\(run)")
        #expect(try FileBytes.read(project.databasePath) == before)
    }

    @Test func againstADatabaseWhoseRowsTheNewSchemaRefusesFails() throws {
        let project = try Self.project(
            schema: Self.desired.replacing(
                "name TEXT NOT NULL, rating REAL", with: "name TEXT NOT NULL, rating INTEGER CHECK (rating > 3)"))
        try Self.seed(project)
        let before = try FileBytes.read(project.databasePath)
        let run = project.run(["diff", "--against", project.databasePath])
        #expect(run.status == 1)
        #expect(
            run.error.contains(
                "rehearsed on \(project.databasePath): the plan fails on a copy of the database: CHECK constraint failed"),
            "\(run)")
        #expect(try FileBytes.read(project.databasePath) == before)
    }

    @Test func jsonListsEachChange() throws {
        let project = try Self.project()
        let run = project.run(["diff", "--format", "json"])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.output.hasPrefix(
                "{\"changes\": [\n  {\"kind\": \"rebuild\", \"object\": \"table wines\", \"summary\": \"rebuild wines: "))
        #expect(run.output.contains("\"statements\": [\"CREATE TABLE \\\"new_wines\\\""))
    }

    @Test func lockedDatabaseIsAnErrorThatChangesNothing() throws {
        let project = try Self.project()
        try Self.seed(project)
        let holder = try Database(path: project.databasePath)
        try holder.execute("BEGIN EXCLUSIVE")
        defer { try? holder.execute("ROLLBACK") }
        let run = project.run(["diff", "--from", project.databasePath, "--busy-timeout", "50"])
        #expect(run.status == 1)
        #expect(run.error.contains("database '\(project.databasePath)' is locked by another connection"), "\(run)")
    }

    @Test func aMigrationThatDoesNotReplayIsTheReplaysFailure() throws {
        let project = try Self.project()
        try project.folder.write("migrations/0002_broken.sql", "-- migrate:up\nALTER TABLE nowhere ADD COLUMN x;\n")
        let run = project.run(["diff"])
        #expect(run.status == 1)
        #expect(run.error.contains("0002_broken.sql:2:"), "\(run)")
        #expect(run.error.contains("replaying migration 0002 failed: no such table: nowhere"), "\(run)")
        #expect(run.error.contains("no database was changed"), "\(run)")
        #expect(!run.error.contains("still at version"), "\(run)")
    }

    static let documents = """
        CREATE VIRTUAL TABLE docs USING fts5(body);
        CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
        CREATE VIEW found AS SELECT rowid, body FROM docs;

        """

    /// A virtual table's rows are its module's: every change a rebuild or ALTER TABLE would make to an
    /// ordinary table is refused, naming the table, before the drop check (whose `--rename` advice
    /// SQLite would refuse for a virtual table's column), and nothing is printed.
    @Test(arguments: [
        ("CREATE VIRTUAL TABLE docs USING fts5(body, title);", [], "it is a virtual table whose columns change (title comes)"),
        (
            "CREATE VIRTUAL TABLE docs USING fts5(content);", [],
            "it is a virtual table whose columns change (body goes, content comes)"
        ),
        (
            "CREATE VIRTUAL TABLE docs USING fts5(content);", ["--rename", "docs.body=content"],
            "it is a virtual table, whose columns SQLite cannot rename (body)"
        ),
        (
            "CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = 'trigram');", [],
            "it is a virtual table whose definition changes"
        ),
        ("CREATE TABLE docs (body TEXT);", [], "it is a virtual table that becomes an ordinary one"),
    ])
    func virtualTableChangesAreRefusedNamingTheTable(desired: String, options: [String], change: String) throws {
        let project = try CLIProject()
        _ = try project.folder.write("from.sql", Self.documents)
        _ = try project.folder.write(
            "to.sql", Self.documents.replacing("CREATE VIRTUAL TABLE docs USING fts5(body);", with: desired))
        let run = project.run(
            ["diff", "--from", project.folder.file("from.sql"), "--to", project.folder.file("to.sql")] + options)
        #expect(run.status == 1)
        #expect(
            run.error
                == "cellar: error: cannot change table docs: \(change), and a virtual table cannot be rebuilt by copying its "
                + "rows (its module keeps them); write this change in a migration of your own: drop the table, create it "
                + "as desired, and fill it again\n", "\(run)")
        #expect(run.output.isEmpty)
    }

    @Test func anOrdinaryTableBecomingVirtualIsRefused() throws {
        let project = try CLIProject()
        _ = try project.folder.write("from.sql", "CREATE TABLE docs (body TEXT);\n")
        _ = try project.folder.write("to.sql", "CREATE VIRTUAL TABLE docs USING fts5(body);\n")
        let run = project.run(["diff", "--from", project.folder.file("from.sql"), "--to", project.folder.file("to.sql")])
        #expect(run.status == 1)
        #expect(
            run.error.hasPrefix(
                "cellar: error: cannot change table docs: it becomes a virtual table, and a virtual table cannot be rebuilt"),
            "\(run)")
    }

    /// Renaming a virtual table is ALTER TABLE … RENAME, which FTS5 takes (renaming its shadow tables
    /// itself): the plan is proved, and applied by migrate the rows stay searchable.
    @Test func aVirtualTableIsRenamedWithItsRows() throws {
        let project = try CLIProject(["0001_docs.sql": "-- migrate:up\n" + Self.documents])
        #expect(project.run(["migrate", "-q"]).status == 0)
        try Database(path: project.databasePath).execute("INSERT INTO docs (body) VALUES ('red wine'), ('white wine')")
        _ = try project.folder.write(
            "schema.sql", Self.documents.replacing("docs", with: "texts"))
        let refused = project.run(["diff"])
        #expect(refused.error.contains("--rename docs=texts"), "\(refused)")
        let written = project.run(["new", "rename_docs", "--from-schema", "--rename", "docs=texts"])
        #expect(written.status == 0, "\(written)")
        #expect(project.run(["migrate", "-q"]).status == 0)
        #expect(try project.scalar("SELECT count(*) FROM texts WHERE texts MATCH 'wine'") == .integer(2))
        #expect(try project.scalar("SELECT count(*) FROM found") == .integer(2))
        #expect(project.run(["verify", "--schema"]).status == 0)
        #expect(project.run(["rollback", "-q"]).status == 0)
        #expect(try project.scalar("SELECT count(*) FROM docs WHERE docs MATCH 'red'") == .integer(1))
    }

    @Test func newFromSchemaWritesAProvedMigrationThatMigrateAppliesAndRollsBack() throws {
        let project = try Self.project(
            schema: Self.desired + "CREATE TABLE grapes (id INTEGER PRIMARY KEY, name TEXT);\n")
        try Self.seed(project)
        let written = project.run(["new", "retype_rating", "--from-schema"])
        #expect(written.status == 0, "\(written)")
        let path = project.folder.file("migrations/0002_retype_rating.sql")
        let text = try FileBytes.readText(path)
        #expect(text.hasPrefix("-- migrate:up\n"))
        #expect(text.contains("-- migrate:down\n-- Drops, with the data in them: table grapes.\n"), "\(text)")
        #expect(project.run(["migrate", "-q"]).status == 0)
        #expect(try project.scalar("SELECT typeof(rating) FROM wines WHERE id = 1") == .text("real"))
        #expect(try project.scalar("SELECT count(*) FROM tastings") == .integer(3))
        #expect(project.run(["verify", "--schema"]).status == 0)
        #expect(project.run(["rollback", "-q"]).status == 0)
        #expect(try project.scalar("SELECT typeof(rating) FROM wines WHERE id = 1") == .text("integer"))
        #expect(try project.scalar("SELECT count(*) FROM tastings") == .integer(3))
        #expect(try project.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'grapes'") == .integer(0))
        let again = project.run(["new", "nothing", "--from-schema"])
        #expect(try project.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'wines_touch'") == .integer(1))
        #expect(again.status == 1)
        #expect(again.error.contains("no migration to write, nothing written"), "\(again)")
        #expect(!FileManagerless.exists(project.folder.file("migrations/0003_nothing.sql")))
    }
}

/// File existence without Foundation.
enum FileManagerless {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}

extension String {
    /// The text before the first `marker`, or all of it.
    fileprivate func components(before marker: String) -> String {
        guard let range = firstRange(of: marker) else { return self }
        return String(self[..<range.lowerBound])
    }
}
