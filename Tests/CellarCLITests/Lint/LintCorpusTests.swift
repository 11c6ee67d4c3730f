import CellarKit
import TestSupport
import Testing

/// The data-loss corpus: migrations modelled on real incidents. Each is run naively first (plain SQL
/// on a copy of a database holding rows) to show that it really loses what it claims; then `cellar
/// lint` must name the right rule at the right place, and, where rows go, `cellar test --against`
/// must name the table and its counts. The correct counterparts give no finding.
@Suite struct LintCorpusTests {
    private let lostAtDrop = "0002_rebuild_media.sql:5:1: error[lost-object]: "

    @Test func aRebuildThatDropsTheTablesTriggers() throws {
        let up = LintCorpus.rebuild(leaving: ["CREATE TRIGGER"])
        let project = try LintCorpus.project(pending: ["0002_rebuild_media.sql": "-- migrate:up\n" + up])
        let naive = try LintCorpus.naive(project, up)
        #expect(try LintCorpus.count(naive, "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger'") == 0)
        let lint = project.run(["lint"])
        #expect(lint.status == 1)
        #expect(
            LintCorpus.findings(lint) == [
                lostAtDrop + "trigger media_audit of table media is gone after this migration (this statement dropped it "
                    + "with its table) and the migration does not create it again"
            ], "\(lint)")
    }

    @Test func aRebuildThatForgetsAnIndex() throws {
        let up = LintCorpus.rebuild(leaving: ["CREATE INDEX"])
        let project = try LintCorpus.project(pending: ["0002_rebuild_media.sql": "-- migrate:up\n" + up])
        let naive = try LintCorpus.naive(project, up)
        #expect(try LintCorpus.count(naive, "SELECT count(*) FROM sqlite_schema WHERE type = 'index'") == 0)
        let lint = project.run(["lint"])
        #expect(lint.status == 1)
        #expect(
            LintCorpus.findings(lint) == [
                lostAtDrop + "index media_by_title of table media is gone after this migration (this statement dropped it "
                    + "with its table) and the migration does not create it again"
            ], "\(lint)")
    }

    /// Renaming the old table away first makes SQLite (3.26 and later) point the view at the new name,
    /// which the migration then drops: the view is still there, and fails on every read.
    @Test func aRenameFirstRebuildThatBreaksAView() throws {
        let base = """
            CREATE TABLE media (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE VIEW titles AS SELECT title FROM media;

            """
        let up = """
            ALTER TABLE media RENAME TO media_old;
            CREATE TABLE media (id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER);
            INSERT INTO media (id, title) SELECT id, title FROM media_old;
            DROP TABLE media_old;

            """
        let project = try LintCorpus.project(
            base: base, pending: ["0002_rebuild_media.sql": "-- migrate:up\n" + up], data: "INSERT INTO media VALUES (1, 'a')")
        let naive = try LintCorpus.naive(project, up)
        #expect(throws: SQLiteError.self) { try naive.query("SELECT * FROM titles") }
        let lint = project.run(["lint"])
        #expect(lint.status == 1)
        #expect(
            LintCorpus.findings(lint) == [
                lostAtDrop + "view titles no longer works after this migration: no such table: main.media_old"
            ], "\(lint)")
        let fixed = "DROP VIEW titles;\n" + up + "CREATE VIEW titles AS SELECT title FROM media;\n"
        try project.folder.write("migrations/0002_rebuild_media.sql", "-- migrate:up\n" + fixed)
        let clean = project.run(["lint"])
        #expect(clean.status == 0 && LintCorpus.findings(clean).isEmpty, "\(clean)")
    }

    /// A `transaction:false` rebuild that turns foreign keys on first: the `DROP TABLE` deletes the
    /// parent's rows, and `ON DELETE CASCADE` takes every child with them.
    @Test func aNonTransactionalRebuildThatCascadesChildrenAway() throws {
        let up = "PRAGMA foreign_keys = ON;\nBEGIN;\n" + LintCorpus.rebuild() + "COMMIT;\n"
        let name = "0042_rebuild_media.sql"
        let project = try LintCorpus.project(pending: [name: "-- migrate:up transaction:false\n" + up])
        let naive = try LintCorpus.naive(project, up)
        #expect(try LintCorpus.count(naive, "SELECT count(*) FROM subtitles") == 0)
        let lint = project.run(["lint"])
        #expect(lint.status == 1)
        #expect(
            LintCorpus.findings(lint) == [
                "\(name):7:1: error[fk-on]: foreign keys are on (turned on at line 2), so DROP TABLE media deletes its rows "
                    + "first, and that deletes or changes rows of subtitles (ON DELETE CASCADE)"
            ], "\(lint)")
        let test = project.run(["test", "--against", project.databasePath])
        #expect(test.status == 1)
        #expect(test.output.contains("0042_rebuild_media: failed\n  subtitles: 3 → 0 rows after 0042_rebuild_media\n"), "\(test)")
        let fixed = "PRAGMA foreign_keys = OFF;\nBEGIN;\n" + LintCorpus.rebuild() + "COMMIT;\nPRAGMA foreign_keys = ON;\n"
        try project.folder.write("migrations/\(name)", "-- migrate:up transaction:false\n" + fixed)
        let clean = project.run(["lint"])
        #expect(clean.status == 0 && LintCorpus.findings(clean).isEmpty, "\(clean)")
        let passing = project.run(["test", "--against", project.databasePath])
        #expect(passing.status == 0 && passing.output == "0042_rebuild_media: no down section\n", "\(passing)")
    }

    @Test func aDeleteWithoutWhere() throws {
        let project = try LintCorpus.project(pending: ["0002_purge.sql": "-- migrate:up\nDELETE FROM subtitles;\n"])
        let naive = try LintCorpus.naive(project, "DELETE FROM subtitles;")
        #expect(try LintCorpus.count(naive, "SELECT count(*) FROM subtitles") == 0)
        let lint = project.run(["lint"])
        #expect(lint.status == 0)
        #expect(
            LintCorpus.findings(lint) == [
                "0002_purge.sql:2:1: warning[destructive]: DELETE without WHERE removes every row of subtitles"
            ])
        #expect(project.run(["lint", "--strict"]).status == 1)
        let test = project.run(["test", "--against", project.databasePath])
        #expect(test.output.contains("  subtitles: 3 → 0 rows after 0002_purge (deleted by it)\n"), "\(test)")
        try project.folder.write("migrations/0002_purge.sql", "-- migrate:up\nDELETE FROM subtitles WHERE lang IS NULL;\n")
        #expect(LintCorpus.findings(project.run(["lint", "--strict"])).isEmpty)
    }

    @Test func aDropColumn() throws {
        let up = "ALTER TABLE media DROP COLUMN rating;\n"
        let project = try LintCorpus.project(pending: ["0002_drop_rating.sql": "-- migrate:up\n" + up])
        let naive = try LintCorpus.naive(project, up)
        #expect(try LintCorpus.count(naive, "SELECT count(*) FROM pragma_table_info('media') WHERE name = 'rating'") == 0)
        let lint = project.run(["lint"])
        #expect(
            LintCorpus.findings(lint) == [
                "0002_drop_rating.sql:2:1: warning[destructive]: column media.rating is dropped, with its values"
            ], "\(lint)")
        let old = project.run(["lint", "--min-sqlite", "3.30.0"])
        #expect(old.status == 1)
        #expect(
            LintCorpus.findings(old).contains(
                "0002_drop_rating.sql:2:19: error[needs-sqlite]: ALTER TABLE … DROP COLUMN needs SQLite 3.35.0 or later; "
                    + "the migrations must run on 3.30.0"), "\(old)")
        try project.folder.write("migrations/0002_drop_rating.sql", "-- migrate:up\nALTER TABLE media ADD COLUMN year INTEGER;\n")
        #expect(LintCorpus.findings(project.run(["lint", "--min-sqlite", "3.30.0"])).isEmpty)
    }

    /// Inside a transaction `PRAGMA foreign_keys` is a no-op: the migration believes it turned
    /// cascades off while they stay on.
    @Test func turningForeignKeysOffInsideATransaction() throws {
        let up = "PRAGMA foreign_keys = OFF;\n" + LintCorpus.rebuild()
        let project = try LintCorpus.project(pending: ["0002_rebuild_media.sql": "-- migrate:up\n" + up])
        let naive = try LintCorpus.naive(project, "BEGIN;\n" + up + "COMMIT;", foreignKeys: true)
        #expect(try LintCorpus.count(naive, "PRAGMA foreign_keys") == 1)
        #expect(try LintCorpus.count(naive, "SELECT count(*) FROM subtitles") == 0)
        let lint = project.run(["lint"])
        #expect(lint.status == 1)
        #expect(LintCorpus.findings(lint).map { $0.prefix(57) } == ["0002_rebuild_media.sql:2:1: error[pragma-noop]: PRAGMA fo"])
        try project.folder.write("migrations/0002_rebuild_media.sql", "-- migrate:up\n" + LintCorpus.rebuild())
        #expect(LintCorpus.findings(project.run(["lint"])).isEmpty)
    }

    @Test func anAutoincrementRebuildWithoutItsSequenceRow() throws {
        let up = LintCorpus.rebuild(leaving: ["sqlite_sequence"])
        let project = try LintCorpus.project(pending: ["0002_rebuild_media.sql": "-- migrate:up\n" + up])
        let naive = try LintCorpus.naive(project, up + "INSERT INTO media (title) VALUES ('new');")
        #expect(try LintCorpus.count(naive, "SELECT max(id) FROM media") == 5, "id 5, once deleted, is given again")
        let lint = project.run(["lint"])
        #expect(lint.status == 1)
        let findings = LintCorpus.findings(lint)
        #expect(findings.count == 1)
        #expect(
            findings.first?.hasPrefix(
                "0002_rebuild_media.sql:4:1: error[lost-object]: table media is rebuilt without its sqlite_sequence row") == true,
            "\(lint)")
        let test = project.run(["test", "--against", project.databasePath])
        #expect(test.status == 1)
        #expect(test.output.contains("  sqlite_sequence: media 5 → 4 after 0002_rebuild_media"), "\(test)")
    }

    @Test func aDownSectionThatForgetsAnIndex() throws {
        let up = "DROP INDEX media_by_title;\nCREATE INDEX media_by_title_rating ON media (title, rating);\n"
        let down = "DROP INDEX media_by_title_rating;\n"
        let project = try LintCorpus.project(pending: ["0002_index.sql": "-- migrate:up\n\(up)-- migrate:down\n\(down)"])
        let naive = try LintCorpus.naive(project, up + down)
        #expect(try LintCorpus.count(naive, "SELECT count(*) FROM sqlite_schema WHERE type = 'index'") == 0)
        let test = project.run(["test"])
        #expect(test.status == 1)
        #expect(test.output.hasPrefix("0002_index: failed\n  its down does not restore index media_by_title\n"), "\(test)")
        #expect(test.output.contains("  the second up fails: "), "\(test)")
        let fixed = "-- migrate:up\n\(up)-- migrate:down\n\(down)CREATE INDEX media_by_title ON media (title);\n"
        try project.folder.write("migrations/0002_index.sql", fixed)
        let passing = project.run(["test"])
        #expect(passing.status == 0 && passing.output == "0002_index: ok\n", "\(passing)")
    }

    @Test func aNonTransactionalMigrationChangingSchemaAndData() throws {
        let up = "ALTER TABLE media ADD COLUMN year INTEGER;\nUPDATE media SET year = 2000 WHERE year IS NULL;\n"
        let project = try LintCorpus.project(pending: ["0002_year.sql": "-- migrate:up transaction:false\n" + up])
        let findings = LintCorpus.findings(project.run(["lint"]))
        #expect(findings.count == 1)
        #expect(
            findings.first?.hasPrefix(
                "0002_year.sql:2:1: warning[not-atomic]: runs with transaction:false and changes both the schema (line 2) and data (line 3)"
            )
                == true, "\(findings)")
        try project.folder.write("migrations/0002_year.sql", "-- migrate:up transaction:false\nBEGIN;\n\(up)COMMIT;\n")
        #expect(LintCorpus.findings(project.run(["lint"])).isEmpty)
    }

    @Test func anIndexOnABigTable() throws {
        let rows = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100001) "
        let project = try LintCorpus.project(
            pending: ["0002_index.sql": "-- migrate:up\nCREATE INDEX media_by_rating ON media (rating);\n"],
            data: rows + "INSERT INTO media (title) SELECT 't' FROM n")
        #expect(LintCorpus.findings(project.run(["lint"])).isEmpty)
        #expect(
            LintCorpus.findings(project.run(["lint", "--against", project.databasePath])) == [
                "0002_index.sql:2:1: warning[big-table]: building index media_by_rating reads all 100,001 rows of media, "
                    + "holding the write lock until it is done"
            ])
    }

    @Test func sqlitesOwnErrorAtItsToken() throws {
        let project = try LintCorpus.project(pending: [
            "0002_year.sql": "-- migrate:up\nALTER TABLE media ADD COLUMN year INTEGER;\nSELECT yeer FROM media;\n",
            "0003_later.sql": "-- migrate:up\nDROP TABLE media;\n",
        ])
        let lint = project.run(["lint"])
        #expect(lint.status == 1)
        #expect(LintCorpus.findings(lint) == ["0002_year.sql:3:8: error: no such column: yeer"], "\(lint)")
        #expect(lint.error.contains("lint stopped at "), "\(lint)")
    }

    @Test(arguments: [LintCorpus.rebuild()])
    func theCorrectRebuildGivesNoFinding(_ up: String) throws {
        let project = try LintCorpus.project(pending: ["0002_rebuild_media.sql": "-- migrate:up\n" + up])
        let lint = project.run(["lint", "--strict", "--min-sqlite", "3.26.0"])
        #expect(lint.status == 0 && LintCorpus.findings(lint).isEmpty, "\(lint)")
        let test = project.run(["test", "--against", project.databasePath])
        #expect(test.status == 0, "\(test)")
    }
}
