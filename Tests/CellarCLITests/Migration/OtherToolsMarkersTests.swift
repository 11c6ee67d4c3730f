import CellarCLI
import CellarKit
import TestSupport
import Testing

/// goose's and sql-migrate's folders run through cellar as they are (SPEC "First contact"), and a
/// mistyped marker stops `migrate` before anything runs instead of running the down section as part of
/// the up.
@Suite struct OtherToolsMarkersTests {
    /// Files as goose's documentation writes them: StatementBegin/End around a trigger body, and
    /// NO TRANSACTION at the top of a file.
    private static let gooseFolder = [
        "20170506082420_create_post.sql": """
        -- +goose Up
        -- +goose StatementBegin
        CREATE TABLE post (id INTEGER PRIMARY KEY, title TEXT NOT NULL, edited_at TEXT);
        -- +goose StatementEnd

        -- +goose Down
        -- +goose StatementBegin
        DROP TABLE post;
        -- +goose StatementEnd

        """,
        "20170506082421_touch_post.sql": """
        -- +goose Up
        -- +goose StatementBegin
        CREATE TRIGGER post_touch AFTER UPDATE OF title ON post BEGIN
            UPDATE post SET edited_at = 'now' WHERE id = NEW.id;
        END;
        -- +goose StatementEnd

        -- +goose Down
        DROP TRIGGER post_touch;

        """,
        "20170506082422_index_post.sql": """
        -- +goose NO TRANSACTION
        -- +goose Up
        CREATE INDEX post_title ON post (title);

        -- +goose Down
        DROP INDEX post_title;

        """,
    ]

    /// Files as sql-migrate's README writes them.
    private static let sqlMigrateFolder = [
        "1_initial.sql": """
        -- +migrate Up
        CREATE TABLE people (id int);


        -- +migrate Down
        DROP TABLE people;

        """,
        "2_people_index.sql": """
        -- +migrate Up notransaction
        CREATE UNIQUE INDEX people_unique_id_idx ON people (id);

        -- +migrate Down
        DROP INDEX people_unique_id_idx;

        """,
    ]

    private func objects(_ project: CLIProject) throws -> [String] {
        try Database(path: project.databasePath, options: .init(mode: .readOnly)).query(
            "SELECT name FROM sqlite_schema WHERE name NOT LIKE 'cellar%' AND name NOT LIKE 'sqlite%' ORDER BY name"
        ).map { row in if case .text(let name) = row[0] { name } else { "" } }
    }

    @Test func aGooseFolderMigratesAndRollsBackAsItIs() throws {
        let project = try CLIProject(Self.gooseFolder)
        let migrated = project.run(["migrate"])
        #expect(migrated.status == 0, "\(migrated.error)")
        #expect(try objects(project) == ["post", "post_title", "post_touch"])
        #expect(try project.scalar("SELECT max(version) FROM cellar_migrations") == .integer(20_170_506_082_422))
        let rolledBack = project.run(["rollback", "--to", "0"])
        #expect(rolledBack.status == 0, "\(rolledBack.error)")
        #expect(try objects(project).isEmpty)
        #expect(project.run(["migrate"]).status == 0)
        #expect(try objects(project) == ["post", "post_title", "post_touch"])
    }

    @Test func anSQLMigrateFolderMigratesAndRollsBackAsItIs() throws {
        let project = try CLIProject(Self.sqlMigrateFolder)
        let migrated = project.run(["migrate"])
        #expect(migrated.status == 0, "\(migrated.error)")
        #expect(try objects(project) == ["people", "people_unique_id_idx"])
        let rolledBack = project.run(["rollback", "--to", "0"])
        #expect(rolledBack.status == 0, "\(rolledBack.error)")
        #expect(try objects(project).isEmpty)
    }

    /// The forms: each used to apply a migration that created the table and dropped it again,
    /// exit 0.
    @Test(arguments: [
        ("-- migrate: up", "-- migrate: down", 1), ("-- migrate:up", "-- migrate:Down", 4),
        ("-- migrate:up", "-- migration:down", 4), ("-- migrate: up", "-- migrate:down", 1),
        ("-- +goose Up", "-- +goose down", 4),
    ])
    func aMistypedMarkerStopsMigrateBeforeAnythingRuns(up: String, down: String, line: Int) throws {
        let project = try CLIProject([
            "0001_wineries.sql": createWineries,
            "0002_cellars.sql": "\(up)\nCREATE TABLE cellars (id INTEGER PRIMARY KEY);\n\n\(down)\nDROP TABLE cellars;\n",
        ])
        let result = project.run(["migrate"])
        #expect(result.status == 1)
        #expect(
            result.error.hasPrefix("\(project.migrationsPath)/0002_cellars.sql:\(line):1: error: "),
            "\(result.error)")
        #expect(result.error.contains("looks like a section marker but is none"))
        #expect(!FileBytes.exists(project.databasePath))
    }
}
