import CellarKit
import Testing

/// A check of the ledger's shape made afresh (outside a run's shared read, or inside a migration's
/// write transaction) first reads the one row named `cellar_migrations`: none is a fresh database, and a
/// table of the very text cellar creates is cellar's ledger. Anything else gets the full check of its
/// columns, which gives the same answers as before.
@Suite struct FreshLedgerCheckTests {
    static let wineries = "CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n"

    /// A ledger of the right name whose columns are not cellar's, made after a fresh check found none,
    /// is refused by the next fresh check, not taken for cellar's.
    @Test func aForeignTableMadeAfterAFreshCheckIsRefusedByTheNext() throws {
        let project = try MigrationProject(["0001_wineries.sql": Self.wineries])
        let database = try project.open()
        let migrator = try project.migrator(database)
        #expect(try migrator.currentVersion() == 0)
        try database.execute("CREATE TABLE cellar_migrations (version INTEGER PRIMARY KEY, name TEXT)")
        #expect {
            _ = try migrator.currentVersion()
        } throws: { error in
            guard case .foreignLedger("cellar_migrations", let problem) = error as? MigrationError else { return false }
            return problem == "it has no column checksum"
        }
        #expect(throws: MigrationError.self) { try migrator.migrate() }
        #expect(try project.tables(database) == ["cellar_migrations"])
    }

    /// A ledger made by an older cellar (no `kind` column) is read as such by a fresh check, and gets
    /// the column when the next migration is recorded.
    @Test func aLedgerWithoutKindIsReadAndCompleted() throws {
        let project = try MigrationProject([
            "0001_wineries.sql": Self.wineries, "0002_wine.sql": "CREATE TABLE wine (id INTEGER PRIMARY KEY);\n",
        ])
        let database = try project.open()
        try database.execute(
            """
            CREATE TABLE cellar_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL,
              applied_at TEXT NOT NULL, duration_ms INTEGER NOT NULL);
            INSERT INTO cellar_migrations VALUES (1, 'wineries', 'x', '2026-01-01T00:00:00Z', 3);
            CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            """)
        let migrator = try project.migrator(database)
        #expect(try migrator.currentVersion() == 1)
        try migrator.migrate()
        #expect(try migrator.currentVersion() == 2)
        #expect(try database.scalar("SELECT kind FROM cellar_migrations WHERE version = 2") == .text("applied"))
    }

    /// cellar's own ledger, changed by another connection (a column added, so its text is no longer the
    /// one cellar creates), is checked in full and still read.
    @Test func cellarsLedgerChangedElsewhereIsCheckedInFull() throws {
        let project = try MigrationProject(["0001_wineries.sql": Self.wineries])
        let database = try project.open()
        let migrator = try project.migrator(database)
        try migrator.migrate()
        #expect(try migrator.currentVersion() == 1)
        let other = try project.open()
        try other.execute("ALTER TABLE cellar_migrations ADD COLUMN note TEXT")
        #expect(try migrator.currentVersion() == 1)
        try other.execute("ALTER TABLE cellar_migrations DROP COLUMN checksum")
        #expect(throws: MigrationError.self) { try migrator.currentVersion() }
    }

    /// The first row of the name decides, as in the full check: a trigger called `cellar_migrations`
    /// made before the ledger is refused, not passed over for the table.
    @Test func aTriggerOfTheNameBeforeTheLedgerIsRefused() throws {
        let project = try MigrationProject(["0001_wineries.sql": Self.wineries])
        let database = try project.open()
        try database.execute(
            """
            CREATE TABLE log (x);
            CREATE TRIGGER cellar_migrations AFTER INSERT ON log BEGIN SELECT 1; END;
            """ + Ledger.createdMigrationsText)
        let migrator = try project.migrator(database)
        #expect {
            _ = try migrator.currentVersion()
        } throws: { error in
            guard case .foreignLedger("cellar_migrations", let problem) = error as? MigrationError else { return false }
            return problem == "it is a trigger, not a table"
        }
    }
}
