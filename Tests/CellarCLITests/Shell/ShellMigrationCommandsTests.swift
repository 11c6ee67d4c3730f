import CellarKit
import Glibc
import TestSupport
import Testing

/// `.diff` and `.migration NAME`: DDL typed in a shell session (the built binary, input piped) becomes
/// a proved migration file that `cellar migrate` applies, leaving the schema SQLite reports for what
/// was typed.
@Suite struct ShellMigrationCommandsTests {
    let folder = TemporaryDirectory()
    var databasePath: String { folder.file("app.db") }

    static let initial = """
        -- migrate:up
        CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER);
        CREATE INDEX wines_by_rating ON wines (rating);
        CREATE TABLE tastings (id INTEGER PRIMARY KEY, wine_id INTEGER NOT NULL REFERENCES wines (id) ON DELETE CASCADE, note TEXT);
        CREATE TRIGGER wines_touch AFTER UPDATE ON wines BEGIN UPDATE tastings SET note = note WHERE wine_id = new.id; END;
        CREATE VIEW rated AS SELECT name, rating FROM wines WHERE rating IS NOT NULL;
        -- migrate:down
        DROP VIEW rated;
        DROP TABLE tastings;
        DROP TABLE wines;

        """

    /// A hand-typed rebuild of `wines` (rating INTEGER → REAL with a CHECK), done right: the index,
    /// trigger and view made again; a column added to `tastings`; a new table.
    static let typed = """
        DROP VIEW rated;
        CREATE TABLE new_wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating REAL CHECK (rating <= 5));
        INSERT INTO new_wines SELECT * FROM wines;
        DROP TABLE wines;
        ALTER TABLE new_wines RENAME TO wines;
        CREATE INDEX wines_by_rating ON wines (rating);
        CREATE TRIGGER wines_touch AFTER UPDATE ON wines BEGIN UPDATE tastings SET note = note WHERE wine_id = new.id; END;
        CREATE VIEW rated AS SELECT name, rating FROM wines WHERE rating IS NOT NULL;
        ALTER TABLE tastings ADD COLUMN score INTEGER DEFAULT 0;
        CREATE TABLE grapes (id INTEGER PRIMARY KEY, name TEXT UNIQUE);

        """

    init() throws {
        _ = try folder.write("migrations/0001_init.sql", Self.initial)
        let migrated = try cellar(["migrate", "-q"])
        #expect(migrated.status == 0, "\(migrated)")
        try Database(path: databasePath).execute(
            """
            INSERT INTO wines (name, rating) VALUES ('Barolo', 4), ('Rioja', 3), ('Cava', NULL);
            DELETE FROM wines WHERE name = 'Cava';
            INSERT INTO tastings (wine_id, note) VALUES (1, 'a'), (1, 'b'), (2, 'c');
            """)
    }

    private func cellar(_ arguments: [String], input: String? = nil) throws -> ChildProcess.Result {
        try Cellar.run(arguments + ["-d", databasePath], in: folder.path, input: input, timeout: 60)
    }

    private func shell(_ input: String, _ options: [String] = []) throws -> ChildProcess.Result {
        try Cellar.run(["shell"] + options + [databasePath], in: folder.path, input: input, timeout: 60)
    }

    /// What SQLite reports of the schema of `path`: each table's columns, options, indexes and foreign
    /// keys through the introspection pragmas, and each view's and trigger's stored SQL.
    static func schemaFacts(_ path: String) throws -> [String] {
        let database = try Database(path: path, options: .init(mode: .readOnly))
        var facts: [String] = []
        let tables = try database.query(
            """
            SELECT name, wr, strict FROM pragma_table_list
            WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name != 'cellar_migrations'
            ORDER BY name
            """)
        for table in tables {
            guard case .text(let name) = table[0] else { continue }
            facts.append("table \(name) wr=\(table[1]) strict=\(table[2])")
            let pragmas = [
                "SELECT cid, name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?1)",
                "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?1) WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
                "SELECT id, seq, \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(?1)",
            ]
            for pragma in pragmas {
                facts += try database.query(pragma, [name]).map {
                    "  \(name): " + $0.values.map { "\($0)" }.joined(separator: "|")
                }
            }
        }
        facts += try database.query(
            "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE type IN ('view', 'trigger', 'index') AND sql IS NOT NULL ORDER BY type, name"
        ).map { $0.values.map { "\($0)" }.joined(separator: "|") }
        return facts
    }

    /// The schema `typed` gives the database when sqlite3 itself runs it on a copy.
    private func referenceFacts(typing typed: String) throws -> [String] {
        let reference = folder.file("reference.db")
        try FileBytes.write(try FileBytes.read(databasePath), to: reference)
        let sqlite = try Shell.run("/usr/bin/sqlite3", [reference], input: Array(typed.utf8), timeout: 30)
        #expect(sqlite.status == 0, "\(sqlite)")
        return try Self.schemaFacts(reference)
    }

    @Test func ddlTypedInATransactionBecomesAMigrationThatMigrateApplies() throws {
        let expected = try referenceFacts(typing: Self.typed)
        let before = try Self.schemaFacts(databasePath)
        let run = try shell(
            "BEGIN;\n" + Self.typed
                + ".diff\n.migration retype_rating\nSELECT count(*) FROM sqlite_schema WHERE name = 'grapes';\n.diff\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.error.isEmpty, "\(run)")
        #expect(
            run.output.contains("cellar migrate` applies migrations/0002_retype_rating.sql\n0\n"), "rolled back in the session")
        let path = "migrations/0002_retype_rating.sql"
        #expect(run.output.contains("-- rebuild wines: rating INTEGER → REAL; keeps 1 index, 1 trigger, 1 view\n"), "\(run)")
        #expect(run.output.contains("ALTER TABLE \"tastings\" ADD COLUMN score INTEGER DEFAULT 0;\n"))
        #expect(
            run.output.contains(
                "\n\(path)\nrolled back the open transaction (every change made in it); `cellar migrate` applies \(path)\n"))
        #expect(run.output.hasSuffix("-- no schema change since the session opened \(databasePath)\n"), "\(run)")
        #expect(try Self.schemaFacts(databasePath) == before, "the session's transaction was rolled back")

        let text = try FileBytes.readText(folder.file(path))
        #expect(text.hasPrefix("-- migrate:up\n"))
        #expect(
            text.contains("-- migrate:down\n-- Drops, with the data in them: table grapes, column tastings.score.\n"), "\(text)")

        let migrated = try cellar(["migrate", "-q"])
        #expect(migrated.status == 0, "\(migrated)")
        #expect(try Self.schemaFacts(databasePath) == expected)
        let database = try Database(path: databasePath)
        #expect(try database.scalar("SELECT count(*) FROM tastings") == .integer(3), "no child row cascaded away")
        #expect(try database.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'wines'") == .integer(3))
        #expect(try database.query("PRAGMA foreign_key_check").isEmpty)
        #expect(try database.scalar("SELECT typeof(rating) FROM wines WHERE id = 1") == .text("real"))
        #expect(try database.scalar("SELECT count(*) FROM rated") == .integer(2))

        let rolledBack = try cellar(["rollback", "-q"])
        #expect(rolledBack.status == 0, "\(rolledBack)")
        #expect(try Self.schemaFacts(databasePath) == before, "the down section restores the schema")
        #expect(try Database(path: databasePath).scalar("SELECT count(*) FROM tastings") == .integer(3))
    }

    @Test func committedDDLIsWrittenAndTheWarningSaysHowToRecordIt() throws {
        let original = folder.file("original.db")
        try FileBytes.write(try FileBytes.read(databasePath), to: original)
        let run = try shell(
            "CREATE TABLE grapes (id INTEGER PRIMARY KEY, name TEXT);\nCREATE INDEX grapes_by_name ON grapes (name);\n.diff\n"
                + ".migration add_grapes\n.diff\n")
        #expect(run.status == 0, "\(run)")
        #expect(!run.output.contains("rolled back"), "no transaction was open")
        #expect(run.error.contains("cellar: warning: \(databasePath) has these schema changes already, committed"), "\(run)")
        #expect(run.error.contains("cellar baseline 0002"))
        #expect(
            run.output.hasSuffix("migrations/0002_add_grapes.sql\n-- no schema change since the session opened \(databasePath)\n")
        )
        // `.diff` printed what `cellar diff` prints between the database before and after the session.
        let diff = try Cellar.run(["diff", "--from", original, "--to", databasePath], in: folder.path, timeout: 60)
        #expect(diff.status == 0, "\(diff)")
        #expect(run.output.hasPrefix(diff.output), "\(run.output)\n---\n\(diff.output)")
        #expect(try cellar(["baseline", "2"]).status == 0)
        #expect(try cellar(["status", "--exit-code"]).status == 0)
    }

    @Test func refusedUnderSafeAndOnAReadOnlyDatabaseWritingNothing() throws {
        let safe = try shell("BEGIN;\nCREATE TABLE grapes (id INTEGER PRIMARY KEY);\n.migration add_grapes\n.diff\n", ["--safe"])
        #expect(safe.status == 1)
        #expect(safe.error.contains(".migration is not allowed with --safe"), "\(safe)")
        #expect(safe.output.contains("-- create table grapes\nCREATE TABLE grapes"), ".diff only reads: \(safe)")
        let readOnly = try shell(".migration add_grapes\n", ["--readonly"])
        #expect(readOnly.status == 1)
        #expect(
            readOnly.error.contains("'.migration' needs a database open for writing, and \(databasePath) is open read-only"),
            "\(readOnly)")
        #expect(!FileBytes.exists(folder.file("migrations/0002_add_grapes.sql")))
        #expect(try DirectoryListingForTests.names(in: folder.file("migrations")) == ["0001_init.sql"])
    }

    @Test func nothingTypedIsAnErrorAndWritesNothing() throws {
        let run = try shell(".diff\n.migration nothing\n")
        #expect(run.status == 1)
        #expect(run.output == "-- no schema change since the session opened \(databasePath)\n")
        #expect(
            run.error.contains("has not changed since the session opened it: no migration to write, nothing written"), "\(run)")
        #expect(try DirectoryListingForTests.names(in: folder.file("migrations")) == ["0001_init.sql"])
    }

    @Test func dropsAndRenamesFollowTheRulesOfCellarDiff() throws {
        let typed = "BEGIN;\nALTER TABLE tastings RENAME COLUMN note TO remark;\n"
        let refused = try shell(typed + ".migration rename_note\n")
        #expect(refused.status == 1)
        #expect(
            refused.error.contains(
                "the plan would drop column tastings.note and the data in it; to keep the data, rename instead: "
                    + "--rename tastings.note=remark; pass --allow-drop to drop it"), "\(refused)")
        #expect(try DirectoryListingForTests.names(in: folder.file("migrations")) == ["0001_init.sql"])
        let renamed = try shell(typed + ".migration rename_note --rename tastings.note=remark\n")
        #expect(renamed.status == 0, "\(renamed)")
        let text = try FileBytes.readText(folder.file("migrations/0002_rename_note.sql"))
        #expect(text.contains("ALTER TABLE \"tastings\" RENAME COLUMN \"note\" TO \"remark\";\n\n-- migrate:down\n"), "\(text)")
        #expect(text.hasSuffix("ALTER TABLE \"tastings\" RENAME COLUMN \"remark\" TO \"note\";\n"), "\(text)")
        #expect(try cellar(["migrate", "-q"]).status == 0)
        #expect(try Database(path: databasePath).scalar("SELECT group_concat(remark) FROM tastings") == .text("a,b,c"))
        let badName = try shell(".migration 'no good'\n")
        #expect(badName.error.contains("'no good' is not a migration name"), "\(badName)")
        let usage = try shell(".diff --allow\n")
        #expect(usage.error.contains("Usage: .diff [--rename OLD=NEW]… [--allow-drop]"), "\(usage)")
    }
}

/// A folder's entry names, sorted, without `.` and `..`.
enum DirectoryListingForTests {
    static func names(in folder: String) throws -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
