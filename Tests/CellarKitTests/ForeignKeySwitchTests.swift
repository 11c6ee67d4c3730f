import CellarKit
import TestSupport
import Testing

/// Issue 15 C3: a `transaction:false` migration that turns foreign keys on must not make a later
/// 12-step table rebuild cascade-delete child rows.
@Suite struct ForeignKeySwitchTests {
    static let parentAndChildren = """
        -- migrate:up
        CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE wine (id INTEGER PRIMARY KEY, winery_id INTEGER REFERENCES wineries (id) ON DELETE CASCADE);
        INSERT INTO wineries VALUES (1, 'Ridge'), (2, 'Heitz');
        INSERT INTO wine VALUES (10, 1), (11, 1), (12, 2);
        -- migrate:down
        DROP TABLE wine;
        DROP TABLE wineries;

        """
    static let foreignKeysOn =
        "-- migrate:up transaction:false\nPRAGMA foreign_keys = ON;\n-- migrate:down transaction:false\nPRAGMA foreign_keys = ON;\n"
    /// The 12-step rebuild of <https://sqlite.org/lang_altertable.html#otheralter> on the parent table.
    static let rebuildParent = """
        -- migrate:up
        CREATE TABLE new_wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL CHECK (name <> ''));
        INSERT INTO new_wineries SELECT id, name FROM wineries;
        DROP TABLE wineries;
        ALTER TABLE new_wineries RENAME TO wineries;
        -- migrate:down
        CREATE TABLE old_wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        INSERT INTO old_wineries SELECT id, name FROM wineries;
        DROP TABLE wineries;
        ALTER TABLE old_wineries RENAME TO wineries;

        """

    private func project() throws -> MigrationProject {
        try MigrationProject([
            "0001_wine.sql": Self.parentAndChildren, "0002_fk_on.sql": Self.foreignKeysOn,
            "0003_rebuild.sql": Self.rebuildParent,
        ])
    }

    @Test(arguments: [false, true])
    func rebuildAfterAMigrationThatTurnedForeignKeysOnKeepsChildRows(initiallyOn: Bool) throws {
        let project = try project()
        let database = try project.open()
        if initiallyOn { try database.execute("PRAGMA foreign_keys = ON") }
        try project.migrator(database).migrate()
        #expect(try project.versions(database) == [1, 2, 3])
        #expect(try database.scalar("SELECT count(*) FROM wine") == .integer(3))
        #expect(try database.scalar("SELECT count(*) FROM wineries") == .integer(2))
        #expect(try database.scalar("PRAGMA foreign_keys") == .integer(initiallyOn ? 1 : 0))
    }

    @Test(arguments: [false, true])
    func rollbackThroughAMigrationThatTurnedForeignKeysOnKeepsChildRows(initiallyOn: Bool) throws {
        let project = try project()
        let database = try project.open()
        try project.migrator(database).migrate()
        if initiallyOn { try database.execute("PRAGMA foreign_keys = ON") }
        try project.migrator(database).rollback(.version(1))
        #expect(try project.versions(database) == [1])
        #expect(try database.scalar("SELECT count(*) FROM wine") == .integer(3))
        #expect(try database.scalar("PRAGMA foreign_keys") == .integer(initiallyOn ? 1 : 0))
    }

    /// The migrator reads `PRAGMA foreign_keys` again after a `transaction:false` file only when SQLite's
    /// authorizer saw that pragma in it: one that writes the pragma in another spelling (a schema
    /// prefix, another case, `1`), after files that left the setting alone, must still be caught.
    @Test(arguments: ["PRAGMA main.Foreign_Keys = 1;", "pragma FOREIGN_KEYS=on;", "PRAGMA foreign_keys = ON;"])
    func aLaterFileTurningForeignKeysOnIsSeenAfterFilesThatDidNot(pragma: String) throws {
        let project = try MigrationProject([
            "0001_wine.sql": Self.parentAndChildren,
            "0002_plain.sql":
                "-- migrate:up transaction:false\nCREATE TABLE notes (body TEXT);\nINSERT INTO notes VALUES ('a');\n",
            "0003_plain.sql": "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE tags (name TEXT);\nCOMMIT;\n",
            "0004_fk_on.sql": "-- migrate:up transaction:false\nCREATE TABLE more (x);\n\(pragma)\n",
            "0005_rebuild.sql": Self.rebuildParent,
        ])
        let database = try project.open()
        try project.migrator(database).migrate()
        #expect(try project.versions(database) == [1, 2, 3, 4, 5])
        #expect(try database.scalar("SELECT count(*) FROM wine") == .integer(3))
        #expect(try database.scalar("PRAGMA foreign_keys") == .integer(0))
    }

    /// A `transaction:false` down section that turns foreign keys on, undone before a rebuild's down
    /// section in the same rollback: the rebuild still runs with enforcement off.
    @Test func aRebuildUndoneAfterADownSectionThatTurnedForeignKeysOnKeepsChildRows() throws {
        let project = try MigrationProject([
            "0001_wine.sql": Self.parentAndChildren, "0002_rebuild.sql": Self.rebuildParent,
            "0003_fk_on.sql": Self.foreignKeysOn,
        ])
        let database = try project.open()
        try project.migrator(database).migrate()
        try project.migrator(database).rollback(.version(1))
        #expect(try project.versions(database) == [1])
        #expect(try database.scalar("SELECT count(*) FROM wine") == .integer(3))
        #expect(try database.scalar("PRAGMA foreign_keys") == .integer(0))
    }

    @Test func aFailedRunStillRestoresTheOriginalSetting() throws {
        let project = try MigrationProject([
            "0001_fk_on.sql": Self.foreignKeysOn, "0002_broken.sql": "CREATE TABLE t (x);\nSELECT nothing_here;\n",
        ])
        let database = try project.open()
        #expect(throws: MigrationError.self) { try project.migrator(database).migrate() }
        #expect(try project.versions(database) == [1])
        #expect(try database.scalar("PRAGMA foreign_keys") == .integer(0))
    }
}
