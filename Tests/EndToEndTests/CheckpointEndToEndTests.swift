import CellarKit
import Glibc
import TestSupport
import Testing

/// `cellar squash --to V` and what `migrations/checkpoint.sql` changes afterwards, driven through the
/// built binary as a user would (SPEC "Schema as code", Checkpoints).
@Suite struct CheckpointEndToEndTests {
    /// A history with data in it: every migration logs itself in `runs` (its primary key makes a second
    /// run fail loudly), 0002 fills an AUTOINCREMENT table, 0003 rebuilds `wine` with a trigger and a
    /// view, 0004 adds a column.
    private func history() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try folder.write(
            "migrations/0001_create_wineries.sql",
            """
            -- migrate:up
            CREATE TABLE runs (version INTEGER PRIMARY KEY);
            INSERT INTO runs VALUES (1);
            CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            INSERT INTO wineries (name) VALUES ('Montelena'), ('Ridge');
            -- migrate:down
            DROP TABLE wineries;
            DROP TABLE runs;

            """)
        try folder.write(
            "migrations/0002_create_wine.sql",
            """
            -- migrate:up
            INSERT INTO runs VALUES (2);
            CREATE TABLE wine (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, winery_id INTEGER REFERENCES wineries (id));
            INSERT INTO wine (name, winery_id) VALUES ('Chardonnay', 1), ('Zinfandel', 2), ('gone', 2);
            DELETE FROM wine WHERE name = 'gone';
            -- migrate:down
            DROP TABLE wine;
            DELETE FROM runs WHERE version = 2;

            """)
        try folder.write(
            "migrations/0003_wine_log.sql",
            """
            -- migrate:up
            INSERT INTO runs VALUES (3);
            CREATE TABLE wine_log (wine_id INTEGER, note TEXT);
            CREATE TRIGGER wine_logged AFTER INSERT ON wine BEGIN INSERT INTO wine_log VALUES (new.id, 'added'); END;
            CREATE VIEW wine_names AS SELECT wine.name, wineries.name AS winery FROM wine JOIN wineries ON wineries.id = winery_id;
            PRAGMA user_version = 3;
            -- migrate:down
            DROP VIEW wine_names;
            DROP TRIGGER wine_logged;
            DROP TABLE wine_log;
            DELETE FROM runs WHERE version = 3;

            """)
        try folder.write(
            "migrations/0004_add_rating.sql",
            """
            -- migrate:up
            INSERT INTO runs VALUES (4);
            ALTER TABLE wine ADD COLUMN rating INTEGER;
            INSERT INTO wine (name, winery_id, rating) VALUES ('Petite Sirah', 2, 4);
            -- migrate:down
            ALTER TABLE wine DROP COLUMN rating;
            DELETE FROM runs WHERE version = 4;

            """)
        return folder
    }

    private func cellar(_ arguments: [String], in folder: TemporaryDirectory) throws -> ChildProcess.Result {
        try Cellar.run(arguments, in: folder.path)
    }

    private func sqlite3(_ path: String, _ sql: String) throws -> String {
        try Shell.run("/usr/bin/sqlite3", [path, sql]).output
    }

    /// sqlite3's own `.dump` of `path` without cellar's ledger tables: what the database holds.
    private func peerDump(_ path: String) throws -> String {
        let dump = try Shell.run("/usr/bin/sqlite3", [path, ".dump"]).output
        return dump.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("cellar_migrations") && !$0.contains("cellar_seeds") }.joined(separator: "\n")
    }

    private func ledger(_ path: String) throws -> String {
        try sqlite3(path, "SELECT version, name, checksum, kind FROM cellar_migrations ORDER BY version")
    }

    private func deleteFiles(_ names: [String], in folder: TemporaryDirectory) {
        for name in names { unlink(folder.file("migrations/\(name).sql")) }
    }

    private static let squashed = ["0001_create_wineries", "0002_create_wine", "0003_wine_log"]

    // MARK: - squash and a fresh bootstrap

    @Test func aFreshSetupFromTheCheckpointHoldsWhatReplayingTheFilesHolds() throws {
        let folder = try history()
        let squash = try cellar(["squash", "--to", "3"], in: folder)
        #expect(squash.status == 0, "\(squash)")
        #expect(
            squash.output
                == "wrote migrations/checkpoint.sql: migrations 0001…0003 squashed (4 tables, 7 rows); "
                + "proved: a database built from it dumps as their replay does\n")
        #expect(squash.error.contains("the files 0001_create_wineries…0003_wine_log may be deleted"), "\(squash)")
        let text = try String(decoding: FileBytes.read(folder.file("migrations/checkpoint.sql")), as: UTF8.self)
        #expect(text.contains("\n-- cellar:checkpoint 0003\n-- cellar:ledger 0001 create_wineries "))
        #expect(!text.contains("BEGIN TRANSACTION;") && !text.contains("\nCOMMIT;") && !text.contains("cellar_migrations"))
        // The reference: the same history applied file by file.
        #expect(try cellar(["migrate", "-d", "files.db"], in: folder).status == 0)
        deleteFiles(Self.squashed, in: folder)
        let setup = try cellar(["setup", "-d", "fresh.db"], in: folder)
        #expect(setup.status == 0, "\(setup)")
        #expect(setup.output.hasPrefix("applied checkpoint.sql (0001…0003) ("), "\(setup)")
        #expect(setup.output.contains("\napplied 0004_add_rating ("))
        #expect(setup.output.hasSuffix("; now at version 4\n"))
        // sqlite3 itself sees the same rows, schema, sequence and user_version; the trigger did not fire
        // on the checkpoint's rows, and works afterwards.
        #expect(try peerDump(folder.file("fresh.db")) == peerDump(folder.file("files.db")))
        #expect(try sqlite3(folder.file("fresh.db"), "SELECT seq FROM sqlite_sequence WHERE name = 'wine'") == "4\n")
        #expect(try sqlite3(folder.file("fresh.db"), "PRAGMA user_version") == "3\n")
        #expect(try sqlite3(folder.file("fresh.db"), "SELECT count(*) FROM wine_log") == "1\n")
        #expect(try sqlite3(folder.file("fresh.db"), "SELECT group_concat(version) FROM runs") == "1,2,3,4\n")
        // The ledger: the files' own versions, names and checksums, kind 'checkpoint', then 0004 applied.
        let expected = try ledger(folder.file("files.db")).replacing("|applied\n", with: "|checkpoint\n")
        let fresh = try ledger(folder.file("fresh.db"))
        #expect(fresh.split(separator: "\n").prefix(3) == expected.split(separator: "\n").prefix(3))
        #expect(fresh.hasSuffix("|add_rating|\(try migrationChecksum(folder, "0004_add_rating"))|applied\n"))
        #expect(try cellar(["verify", "--schema", "-d", "fresh.db"], in: folder).status == 0)
    }

    private func migrationChecksum(_ folder: TemporaryDirectory, _ name: String) throws -> String {
        try MigrationFiles.migration(at: folder.file("migrations/\(name).sql")).checksum
    }

    @Test func theLoaderNeverReadsTheCheckpointAsAMigration() throws {
        let folder = try history()
        #expect(try cellar(["squash", "--to", "2"], in: folder).status == 0)
        let status = try cellar(["status", "--format", "json", "-d", "fresh.db"], in: folder)
        #expect(status.status == 0, "\(status)")
        #expect(!status.output.contains("checkpoint"), "\(status)")
        // With the files still there, a fresh database runs the checkpoint for 1…2 and the files above.
        let migrated = try cellar(["migrate", "-d", "fresh.db"], in: folder)
        #expect(migrated.output.hasPrefix("applied checkpoint.sql (0001…0002) ("), "\(migrated)")
        #expect(!migrated.output.contains("0001_create_wineries") && !migrated.output.contains("0002_create_wine"))
        #expect(
            try sqlite3(folder.file("fresh.db"), "SELECT group_concat(kind) FROM cellar_migrations")
                == "checkpoint,checkpoint,applied,applied\n")
        // A file still present and unchanged shows as applied; its checksum is still checked.
        #expect(try cellar(["status", "-d", "fresh.db"], in: folder).output.contains("applied  0001 create_wineries"))
    }

    // MARK: - old databases

    @Test func aDatabaseAtTheCheckpointNeverRunsItAndItsRowsShowAsSquashed() throws {
        let folder = try history()
        #expect(try cellar(["migrate", "--to", "3"], in: folder).status == 0)
        let database = folder.file("cellar.sqlite")
        #expect(try cellar(["squash", "--to", "3"], in: folder).status == 0)
        deleteFiles(Self.squashed, in: folder)
        let migrated = try cellar(["migrate"], in: folder)
        #expect(migrated.status == 0, "\(migrated)")
        #expect(migrated.output.hasPrefix("applied 0004_add_rating ("), "\(migrated)")
        #expect(!migrated.output.contains("checkpoint"))
        #expect(migrated.error.isEmpty, "squashed rows are not warned about: \(migrated)")
        // Every applied migration ran exactly once: `runs` has its primary key, and the rows 0001–0003
        // inserted are still there once (0004 added its own).
        #expect(try sqlite3(database, "SELECT group_concat(version) FROM runs") == "1,2,3,4\n")
        #expect(try sqlite3(database, "SELECT count(*) FROM wineries") == "2\n")
        #expect(try cellar(["migrate"], in: folder).output == "nothing to apply; the database is at version 4\n")
        let status = try cellar(["status", "--exit-code"], in: folder)
        #expect(status.status == 0, "\(status)")
        #expect(
            status.output.contains(#/  squashed 0001 create_wineries +\S+ \(\d+ ms\)  no file: the checkpoint stands for it\n/#),
            "\(status)")
        #expect(status.output.contains("  squashed 0003 wine_log"))
        #expect(!status.output.contains("missing"))
        let json = try cellar(["status", "--format", "json"], in: folder)
        #expect(json.output.contains(#""version": 2, "name": "create_wine", "state": "squashed""#), "\(json)")
        // verify no longer checks their checksums; verify --schema replays the checkpoint for them.
        let verify = try cellar(["verify", "--schema"], in: folder)
        #expect(verify.status == 0, "\(verify)")
        #expect(
            verify.output
                == "verified 4 applied migrations: all match their files (3 squashed into migrations/checkpoint.sql) "
                + "and the schema matches them\n")
        // Without the checkpoint the same rows are missing files again.
        unlink(folder.file("migrations/checkpoint.sql"))
        let unguarded = try cellar(["verify"], in: folder)
        #expect(unguarded.status == 1)
        #expect(unguarded.error.contains("migration 1 (create_wineries) is recorded as applied but its file is missing"))
    }

    @Test func aDatabaseBelowTheCheckpointNeedsTheFilesAboveItsVersion() throws {
        let folder = try history()
        #expect(try cellar(["migrate", "--to", "1"], in: folder).status == 0)
        let database = folder.file("cellar.sqlite")
        #expect(try cellar(["squash", "--to", "3"], in: folder).status == 0)
        // The files are still there: they are applied as files; the checkpoint does not run.
        let copy = folder.file("copy.sqlite")
        #expect(try Shell.run("/bin/cp", [database, copy]).status == 0)
        let withFiles = try cellar(["migrate", "-d", "copy.sqlite"], in: folder)
        #expect(withFiles.status == 0, "\(withFiles)")
        #expect(withFiles.output.hasPrefix("applied 0002_create_wine ("), "\(withFiles)")
        #expect(try sqlite3(copy, "SELECT group_concat(kind) FROM cellar_migrations") == "applied,applied,applied,applied\n")
        #expect(try sqlite3(copy, "SELECT group_concat(version) FROM runs") == "1,2,3,4\n")
        // Gone: an error naming the checkpoint and the versions it lacks; the database is untouched.
        deleteFiles(Self.squashed, in: folder)
        let bytes = try FileBytes.read(database)
        for arguments in [["migrate"], ["setup"], ["migrate", "--all-or-nothing"], ["migrate", "--dry-run"]] {
            let refused = try cellar(arguments, in: folder)
            #expect(refused.status == 1, "\(arguments): \(refused)")
            #expect(
                refused.error.contains(
                    "the database is at version 1, below the checkpoint migrations/checkpoint.sql (version 3), "
                        + "which only builds new databases: it needs the migration files 0002, 0003, which are gone"),
                "\(arguments): \(refused)")
            #expect(refused.output.isEmpty)
        }
        #expect(try FileBytes.read(database) == bytes)
        let status = try cellar(["status"], in: folder)
        #expect(status.output.contains("  squashed 0001 create_wineries"), "\(status)")
        #expect(
            status.output.contains(
                "  pending  0002 create_wine      [file gone: checkpoint.sql only builds new databases]\n"),
            "\(status)")
    }

    @Test func rollbackNeverGoesBelowTheCheckpointOnADatabaseBornFromIt() throws {
        let folder = try history()
        #expect(try cellar(["squash", "--to", "3"], in: folder).status == 0)
        // Even with the files (and their down sections) still there.
        #expect(try cellar(["setup"], in: folder).status == 0)
        let database = folder.file("cellar.sqlite")
        let undone = try cellar(["rollback"], in: folder)
        #expect(undone.status == 0, "\(undone)")
        #expect(undone.output.hasPrefix("rolled back 0004_add_rating"))
        let before = try FileBytes.read(database)
        for arguments in [
            ["rollback"], ["rollback", "--steps", "2"], ["rollback", "--to", "1"], ["rollback", "--to", "0"], ["redo"],
        ] {
            let refused = try cellar(arguments, in: folder)
            #expect(refused.status == 1, "\(arguments): \(refused)")
            #expect(
                refused.error.contains(
                    "cannot roll back below version 3: the database was built from the checkpoint "
                        + "migrations/checkpoint.sql, which has no down section; nothing was changed"),
                "\(arguments): \(refused)")
        }
        #expect(try FileBytes.read(database) == before)
        // A database built from the files (before the squash) can still go below it while its files are there.
        unlink(folder.file("migrations/checkpoint.sql"))
        #expect(try cellar(["migrate", "-d", "files.db"], in: folder).status == 0)
        #expect(try cellar(["squash", "--to", "3"], in: folder).status == 0)
        let below = try cellar(["rollback", "-d", "files.db", "--to", "1"], in: folder)
        #expect(below.status == 0, "\(below)")
        #expect(try sqlite3(folder.file("files.db"), "SELECT group_concat(version) FROM runs") == "1\n")
    }

    // MARK: - replays

    @Test func everyReplayOfTheFolderUsesTheCheckpoint() throws {
        let folder = try history()
        #expect(try cellar(["squash", "--to", "3"], in: folder).status == 0)
        deleteFiles(Self.squashed, in: folder)
        // 0004 needs the tables 0001 and 0002 made: every replay must build them from the checkpoint.
        let lint = try cellar(["lint"], in: folder)
        #expect(lint.status == 0, "\(lint)")
        #expect(lint.error.contains("in 1 migration"), "\(lint)")
        let lintAll = try cellar(["lint", "--all"], in: folder)
        #expect(lintAll.status == 0, "\(lintAll)")
        let test = try cellar(["test"], in: folder)
        #expect(test.status == 0, "\(test)")
        #expect(test.output == "0004_add_rating: ok\n", "\(test)")
        let dryRun = try cellar(["setup", "--dry-run"], in: folder)
        #expect(dryRun.status == 0, "\(dryRun)")
        #expect(dryRun.output.hasPrefix("checkpoint.sql (0001…0003): "), "\(dryRun)")
        #expect(dryRun.output.contains("\n0004_add_rating: "))
        #expect(!FileBytes.exists(folder.file("cellar.sqlite")))
        #expect(try cellar(["migrate"], in: folder).status == 0)
        let diff = try cellar(["diff", "--from", "migrations", "--to", "cellar.sqlite", "--exit-code"], in: folder)
        #expect(diff.status == 0, "\(diff)")
        #expect(diff.output.isEmpty)
        try folder.write(
            "schema.sql", try cellar(["schema"], in: folder).output + "CREATE TABLE notes (id INTEGER PRIMARY KEY);\n")
        let planned = try cellar(["diff"], in: folder)
        #expect(planned.status == 0, "\(planned)")
        #expect(planned.output.contains("CREATE TABLE notes"), "\(planned)")
        #expect(!planned.output.contains("wineries"), "the replay holds what the checkpoint built: \(planned)")
        // new numbers after the checkpoint even though its files are gone.
        let created = try cellar(["new", "add_notes", "--from-schema"], in: folder)
        #expect(created.status == 0, "\(created)")
        #expect(created.output == "migrations/0005_add_notes.sql\n")
        #expect(try cellar(["migrate"], in: folder).output.hasPrefix("applied 0005_add_notes"))
        #expect(try cellar(["verify", "--schema"], in: folder).status == 0)
    }

    @Test func aFleetBootstrapsEveryNewDatabaseFromTheCheckpoint() throws {
        let folder = try history()
        #expect(try cellar(["squash", "--to", "3"], in: folder).status == 0)
        deleteFiles(Self.squashed, in: folder)
        let status = try cellar(["status", "-d", "a.db"], in: folder)
        #expect(status.output.contains("  pending  0001 create_wineries  [no file: built by checkpoint.sql]\n"), "\(status)")
        #expect(status.output.contains("  pending  0004 add_rating\n"), "\(status)")
        let fleet = try cellar(["setup", "-d", "a.db", "-d", "b.db", "-d", "c.db", "--jobs", "3"], in: folder)
        #expect(fleet.status == 0, "\(fleet)")
        for name in ["a.db", "b.db", "c.db"] {
            #expect(
                try sqlite3(folder.file(name), "SELECT group_concat(kind) FROM cellar_migrations")
                    == "checkpoint,checkpoint,checkpoint,applied\n", "\(name)")
            #expect(try sqlite3(folder.file(name), "SELECT group_concat(version) FROM runs") == "1,2,3,4\n")
        }
    }

    // MARK: - bad input

    @Test func badInputIsAClearErrorAndWritesNothing() throws {
        let folder = try history()
        let checkpoint = folder.file("migrations/checkpoint.sql")
        let cases: [([String], Int32, String)] = [
            (["squash"], 2, "'squash' needs --to V"),
            (["squash", "--to", "x"], 2, "'x' is not a migration version"),
            (
                ["squash", "--to", "9"], 1,
                "cannot squash to version 9: the newest migration is 0004_add_rating; nothing was written"
            ),
            (["squash", "--to", "0"], 1, "no migration file has version 0; nothing was written"),
        ]
        for (arguments, status, message) in cases {
            let result = try cellar(arguments, in: folder)
            #expect(result.status == status, "\(arguments): \(result)")
            #expect(result.error.contains(message), "\(arguments): \(result)")
            #expect(!FileBytes.exists(checkpoint))
        }
        try folder.write("migrations/0007_gap.sql", "SELECT 1;\n")
        let gap = try cellar(["squash", "--to", "5"], in: folder)
        #expect(gap.status == 1 && gap.error.contains("no migration file has version 5; nothing was written"), "\(gap)")
        unlink(folder.file("migrations/0007_gap.sql"))
        // An existing checkpoint is replaced only with --replace, and only by one that goes further.
        #expect(try cellar(["squash", "--to", "2"], in: folder).status == 0)
        let written = try FileBytes.read(checkpoint)
        let again = try cellar(["squash", "--to", "3"], in: folder)
        #expect(again.status == 1, "\(again)")
        #expect(
            again.error
                == "cellar: error: migrations/checkpoint.sql already exists (it covers 0001…0002); give --replace to write one "
                + "that goes further; nothing was written\n")
        let backwards = try cellar(["squash", "--to", "2", "--replace"], in: folder)
        #expect(backwards.status == 1, "\(backwards)")
        #expect(
            backwards.error.contains("already covers 0001…0002: a new checkpoint must go beyond version 0002"), "\(backwards)")
        #expect(try FileBytes.read(checkpoint) == written)
        #expect(try DirectoryListing.fileNames(in: folder.file("migrations")).filter { $0.hasPrefix(".") }.isEmpty)
        // A checkpoint that is not one: located, and nothing runs.
        try folder.write("migrations/checkpoint.sql", "-- cellar:checkpoint 0002\n-- cellar:ledger 0001 x deadbeef\nSELECT 1;\n")
        let broken = try cellar(["migrate"], in: folder)
        #expect(broken.status == 1)
        #expect(
            broken.error.hasPrefix(
                "migrations/checkpoint.sql:2:1: error: a '-- cellar:ledger' line is 'VERSION NAME CHECKSUM' (a SHA-256 in lowercase hex)"
            ), "\(broken)")
        #expect(!FileBytes.exists(folder.file("cellar.sqlite")), "nothing ran, so nothing was created")
        let status = try cellar(["status"], in: folder)
        #expect(status.status == 1 && status.output.contains("  error    checkpoint.sql"), "\(status)")
    }

    @Test func aCheckpointThatDoesNotProveIsAnErrorAndNothingIsWritten() throws {
        let folder = TemporaryDirectory()
        // Rows that break a CHECK constraint can be replayed (the pragma is on in the replay) but not
        // inserted into a fresh database: the proof catches it.
        try folder.write(
            "migrations/0001_loose.sql",
            "CREATE TABLE t (x INTEGER CHECK (x > 0));\nPRAGMA ignore_check_constraints = ON;\nINSERT INTO t VALUES (-1);\n")
        let result = try Cellar.run(["squash", "--to", "1"], in: folder.path)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.error
                == "migrations/checkpoint.sql: error: the checkpoint does not rebuild what the migrations leave: "
                + "building a database from it failed: CHECK constraint failed: x > 0 (at: INSERT INTO t VALUES(-1);)\n"
                + "cellar: nothing was written\n", "\(result)")
        #expect(try DirectoryListing.fileNames(in: folder.file("migrations")) == ["0001_loose.sql"])
    }

    @Test func replacingACheckpointKeepsItsLedgerRowsAndOldDatabasesWorking() throws {
        let folder = try history()
        #expect(try cellar(["squash", "--to", "2"], in: folder).status == 0)
        deleteFiles(["0001_create_wineries", "0002_create_wine"], in: folder)
        #expect(try cellar(["migrate", "-d", "old.db", "--to", "2"], in: folder).status == 0)
        let replaced = try cellar(["squash", "--to", "3", "--replace"], in: folder)
        #expect(replaced.status == 0, "\(replaced)")
        #expect(replaced.output.hasPrefix("wrote migrations/checkpoint.sql: migrations 0001…0003 squashed"), "\(replaced)")
        deleteFiles(["0003_wine_log"], in: folder)
        // Born from the old checkpoint at 2, the database needs 0003's file, which is gone now.
        let old = try cellar(["migrate", "-d", "old.db"], in: folder)
        #expect(old.status == 1 && old.error.contains("it needs the migration files 0003, which are gone"), "\(old)")
        let fresh = try cellar(["setup", "-d", "fresh.db"], in: folder)
        #expect(fresh.status == 0, "\(fresh)")
        #expect(
            try sqlite3(folder.file("fresh.db"), "SELECT group_concat(version || kind) FROM cellar_migrations")
                == "1checkpoint,2checkpoint,3checkpoint,4applied\n")
        #expect(try sqlite3(folder.file("fresh.db"), "SELECT group_concat(version) FROM runs") == "1,2,3,4\n")
    }

    @Test func anAppBundlingTheCheckpointBootstrapsFromItInMemory() throws {
        let folder = try history()
        #expect(try cellar(["squash", "--to", "3"], in: folder).status == 0)
        let files = try ["checkpoint", "0004_add_rating"].map { name in
            MigrationSource.File(name: "\(name).sql", contents: try FileBytes.read(folder.file("migrations/\(name).sql")))
        }
        let database = try Database(path: ":memory:")
        let migrator = try Migrator(database: database, source: .files(files))
        #expect(migrator.checkpoint?.version == 3)
        #expect(try migrator.pending().map(\.identifier) == ["checkpoint.sql (0001…0003)", "0004_add_rating"])
        let outcomes = try migrator.migrate()
        #expect(outcomes.count == 2)
        #expect(try migrator.applied().map(\.isCheckpoint) == [true, true, true, false])
        #expect(try migrator.status().map(\.state) == [.squashed, .squashed, .squashed, .applied])
        #expect(try migrator.verify().isEmpty)
        #expect(try migrator.schemaDrift().isEmpty)
        #expect(try database.scalar("SELECT group_concat(version) FROM runs") == .text("1,2,3,4"))
    }
}
