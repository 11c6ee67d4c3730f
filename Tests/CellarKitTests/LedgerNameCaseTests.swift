import TestSupport
import Testing

@testable import CellarKit

/// SQLite compares table names in ASCII case only (`CELLAR_MIGRATIONS` is `main.cellar_migrations`):
/// cellar finds its ledgers, and other tools' ones, under any ASCII case of their names.
@Suite struct LedgerNameCaseTests {
    private let three = [
        "1_wineries.sql": wineries, "2_wine.sql": wine,
        "3_c.sql": "-- migrate:up\nCREATE TABLE c (x);\n-- migrate:down\nDROP TABLE c;\n",
    ]

    @Test(arguments: ["CELLAR_MIGRATIONS", "Cellar_Migrations"])
    func aForeignShapedLedgerInAnotherCaseIsRefusedAsTheLowerCaseOneIs(name: String) throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try database.execute("CREATE TABLE \(name) (version TEXT PRIMARY KEY, note TEXT)")
        let before = try database.query("SELECT name, sql FROM sqlite_schema ORDER BY name")
        #expect {
            try project.migrator(database).migrate()
        } throws: { error in
            guard case .foreignLedger("cellar_migrations", let problem) = error as? MigrationError else { return false }
            return problem == "column version is declared TEXT, not INTEGER"
        }
        #expect(try database.query("SELECT name, sql FROM sqlite_schema ORDER BY name") == before)
    }

    @Test func aLedgerOfCellarsShapeInMixedCaseIsCellarsAndUsed() throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try database.execute(Ledger.createMigrations.replacing("main.cellar_migrations", with: "main.Cellar_Migrations"))
        try project.migrator(database).migrate(to: 1)
        #expect(try project.migrator(database).currentVersion() == 1)
        try project.migrator(database).migrate()
        #expect(try project.migrator(database).currentVersion() == 3)
        #expect(try database.scalar("SELECT count(*) FROM Cellar_Migrations") == .integer(3))
        #expect(try project.tables(database) == ["Cellar_Migrations", "c", "wine", "wineries"])
    }

    @Test func anUpperCaseLedgerWithoutKindGetsTheColumn() throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try database.execute(
            """
            CREATE TABLE CELLAR_MIGRATIONS (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL,
              applied_at TEXT NOT NULL, duration_ms INTEGER NOT NULL)
            """)
        try project.migrator(database).migrate()
        #expect(try project.migrator(database).currentVersion() == 3)
        #expect(try database.scalar("SELECT count(*) FROM CELLAR_MIGRATIONS WHERE kind = 'applied'") == .integer(3))
    }

    @Test func aForeignShapedSeedsLedgerInUpperCaseIsRefused() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries])
        let database = try project.open()
        try project.migrator(database).migrate()
        try database.execute("CREATE TABLE CELLAR_SEEDS (name INTEGER PRIMARY KEY, note TEXT)")
        try project.folder.write("seeds/1_wineries.sql", "INSERT INTO wineries (name) VALUES ('Ridge');\n")
        #expect {
            try Seeder(database: database).run(try Seed.all(in: project.folder.file("seeds")))
        } throws: { error in
            guard case .foreignLedger("cellar_seeds", let problem) = error as? MigrationError else { return false }
            return problem == "column name is declared INTEGER, not TEXT"
        }
        #expect(try database.scalar("SELECT count(*) FROM wineries") == .integer(0))
    }

    @Test func anotherToolsLedgerInUpperCaseIsFoundAndCellarsInUpperCaseStandsBesideIt() throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try database.execute(
            "CREATE TABLE SCHEMA_MIGRATIONS (version TEXT PRIMARY KEY); INSERT INTO SCHEMA_MIGRATIONS VALUES ('1')")
        #expect {
            try project.migrator(database).migrate()
        } throws: { error in
            guard case .otherToolLedger(let ledger) = error as? MigrationError else { return false }
            return ledger.tool == .dbmate && ledger.versions == [1]
        }
        try database.execute(Ledger.createMigrations.replacing("main.cellar_migrations", with: "main.CELLAR_MIGRATIONS"))
        try project.migrator(database).migrate()
        #expect(try project.migrator(database).currentVersion() == 3)
    }

    @Test func ledgersInUpperCaseAreNoUserTables() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries])
        let database = try project.open()
        try database.execute(Ledger.createMigrations.replacing("main.cellar_migrations", with: "main.CELLAR_MIGRATIONS"))
        try database.execute(Ledger.createSeeds.replacing("main.cellar_seeds", with: "main.Cellar_Seeds"))
        try project.migrator(database).migrate()
        #expect(try database.schemaSQL() == "CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n")
        #expect(try project.migrator(database).schemaDrift().isEmpty)
        #expect(try TableRowCounts.tables(of: database) == ["wineries"])
        #expect(try SchemaCapture.capture(of: database).objects.map(\.name) == ["wineries"])
        #expect(try SchemaCatalog.read(from: database).orderedTables.map(\.object.name) == ["wineries"])
        #expect(try LintSchema.read(database).all("table").map(\.name) == ["wineries"])
        #expect(StatementActions.isInternal("CELLAR_MIGRATIONS") && StatementActions.isInternal("Cellar_Seeds"))
    }
}
