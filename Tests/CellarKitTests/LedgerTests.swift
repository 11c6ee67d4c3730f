import CellarKit
import TestSupport
import Testing

/// The ledger's `kind` column, baselines that are never undone, the seeds' ledger after a full
/// rollback, foreign tables of the ledger's name, and a TEMP table that must not shadow it.
@Suite struct LedgerTests {
    private let three = [
        "1_wineries.sql": wineries, "2_wine.sql": wine,
        "3_c.sql": "-- migrate:up\nCREATE TABLE c (x);\n-- migrate:down\nDROP TABLE c;\n",
    ]

    private func kinds(_ database: Database) throws -> [String] {
        try database.query("SELECT kind FROM main.cellar_migrations ORDER BY version").map { row in
            if case .text(let kind) = row[0] { kind } else { "" }
        }
    }

    @Test func baselineRecordsKindBaselineAndMigrateRecordsApplied() throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try database.execute("CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        try project.migrator(database).baseline(through: 1)
        try project.migrator(database).migrate()
        #expect(try kinds(database) == ["baseline", "applied", "applied"])
        #expect(try project.migrator(database).applied().map(\.isBaseline) == [true, false, false])
    }

    @Test func stepsBeyondWhatMayBeUndoneIsAnErrorThatChangesNothing() throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try database.execute("CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        try database.execute("INSERT INTO wineries (name) VALUES ('Ridge')")
        try project.migrator(database).baseline(through: 1)
        try project.migrator(database).migrate()
        #expect {
            try project.migrator(database).rollback(.steps(10))
        } throws: { error in
            guard case .tooManySteps(10, 2, let baseline?) = error as? MigrationError else { return false }
            return baseline.version == 1 && "\(error)".contains("never undone")
        }
        #expect(try project.versions(database) == [1, 2, 3])
        #expect(try project.tables(database) == ["c", "cellar_migrations", "wine", "wineries"])
    }

    @Test func rollbackNeverCrossesABaseline() throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try database.execute("CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        try database.execute("CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT, winery_id INTEGER)")
        try project.migrator(database).baseline(through: 2)
        try project.migrator(database).migrate()
        #expect(throws: MigrationError.self) { try project.migrator(database).rollback(.version(1)) }
        #expect(try project.versions(database) == [1, 2, 3])
        let outcomes = try project.migrator(database).rollback(.version(0))
        #expect(outcomes.map(\.migration.version) == [3])
        #expect(try project.versions(database) == [1, 2])
        #expect(try project.tables(database) == ["cellar_migrations", "wine", "wineries"])
        #expect(throws: MigrationError.self) { try project.migrator(database).rollback() }
    }

    @Test func anOlderLedgerWithoutKindGetsTheColumnOnTheNextWrite() throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try database.execute(
            """
            CREATE TABLE cellar_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL,
              applied_at TEXT NOT NULL, duration_ms INTEGER NOT NULL)
            """)
        let migrator = try project.migrator(database)
        try migrator.migrate(to: 1)
        try migrator.baseline(through: 2)
        #expect(try kinds(database) == ["applied", "baseline"])
        try migrator.migrate()
        #expect(try migrator.status().map(\.state) == [.applied, .applied, .applied])
    }

    @Test func anOlderLedgerWithoutKindGetsTheColumnWhenARollbackWrites() throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try project.migrator(database).migrate()
        try database.execute("ALTER TABLE cellar_migrations DROP COLUMN kind")
        #expect(try database.scalar("SELECT count(*) FROM pragma_table_info('cellar_migrations')") == .integer(5))
        try project.migrator(database).rollback()
        #expect(try kinds(database) == ["applied", "applied"])
        #expect(try project.versions(database) == [1, 2])
    }

    /// The current version is the highest applied row's, read as one value (issue 26): an unfinished
    /// claim above it does not count, an older ledger without `kind` counts every row, no ledger is 0,
    /// and the value is the one the whole ledger gives.
    @Test func theCurrentVersionIsTheHighestRowThatIsNotAnUnfinishedClaim() throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        #expect(try project.migrator(database).currentVersion() == 0)
        try project.migrator(database).migrate()
        #expect(try project.migrator(database).currentVersion() == 3)
        try database.execute("UPDATE cellar_migrations SET kind = 'unfinished' WHERE version = 3")
        let migrator = try project.migrator(database)
        #expect(try migrator.currentVersion() == 2)
        #expect(try migrator.currentVersion() == migrator.applied().last?.version)
        try database.execute("DELETE FROM cellar_migrations WHERE version = 3")
        try database.execute("ALTER TABLE cellar_migrations DROP COLUMN kind")
        try database.execute("INSERT INTO cellar_migrations VALUES (9, 'later', 'x', '2026-12-02T00:00:00Z', 0)")
        #expect(try project.migrator(database).currentVersion() == 9)
    }

    @Test func anOlderLedgerWithoutKindIsReadAsApplied() throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try database.execute(
            """
            CREATE TABLE cellar_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL,
              applied_at TEXT NOT NULL, duration_ms INTEGER NOT NULL);
            INSERT INTO cellar_migrations VALUES (1, 'wineries', 'x', '2026-01-01T00:00:00Z', 3)
            """)
        #expect(try project.migrator(database).applied().map(\.isBaseline) == [false])
        #expect(try database.scalar("SELECT count(*) FROM pragma_table_info('cellar_migrations')") == .integer(5))
    }

    @Test(arguments: [
        (
            "CREATE TABLE cellar_migrations (version TEXT PRIMARY KEY, name TEXT, checksum TEXT, applied_at TEXT, duration_ms INTEGER)",
            "column version is declared TEXT, not INTEGER"
        ),
        (
            "CREATE TABLE cellar_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT, duration_ms INTEGER)",
            "it has no column checksum"
        ),
        (
            "CREATE TABLE cellar_migrations (version INTEGER, name TEXT, checksum TEXT, applied_at TEXT, duration_ms INTEGER)",
            "column version is not its PRIMARY KEY"
        ),
        ("CREATE VIEW cellar_migrations AS SELECT 1 AS version", "it is a view, not a table"),
        // SQLite's names match whatever the case of their ASCII letters: this is the table
        // main.cellar_migrations names, so it is refused the same way.
        (
            "CREATE TABLE CELLAR_MIGRATIONS (version TEXT PRIMARY KEY, note TEXT)",
            "column version is declared TEXT, not INTEGER"
        ),
        ("CREATE VIEW Cellar_Migrations AS SELECT 1 AS version", "it is a view, not a table"),
        (
            // KELVIN SIGN, which Swift's lowercased() (Unicode) turns into "k" and SQLite (ASCII only)
            // does not: to SQLite this table has no column checksum.
            "CREATE TABLE cellar_migrations (version INTEGER PRIMARY KEY, name TEXT, \"chec\u{212A}sum\" TEXT, applied_at TEXT, duration_ms INTEGER)",
            "it has no column checksum"
        ),
    ])
    func aForeignLedgerIsRefusedNamingWhatIsWrong(sql: String, problem: String) throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try database.execute(sql)
        let before = try database.query("SELECT name, sql FROM sqlite_schema ORDER BY name")
        let migrator = try project.migrator(database)
        for attempt: () throws -> Void in [
            { _ = try migrator.migrate() }, { _ = try migrator.rollback() }, { _ = try migrator.status() },
            { _ = try migrator.accept(version: 1) }, { _ = try migrator.baseline(through: 1) },
        ] {
            #expect {
                try attempt()
            } throws: { error in
                guard case .foreignLedger("cellar_migrations", let found) = error as? MigrationError else { return false }
                return found == problem && "\(error)".hasPrefix("table main.cellar_migrations is not cellar's ledger")
            }
        }
        #expect(try database.query("SELECT name, sql FROM sqlite_schema ORDER BY name") == before)
    }

    @Test func aLedgerWhoseColumnsDifferOnlyInASCIICaseIsCellars() throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try database.execute(
            """
            CREATE TABLE cellar_migrations (VERSION INTEGER PRIMARY KEY, Name TEXT NOT NULL, CheckSum TEXT NOT NULL,
              Applied_At TEXT NOT NULL, DURATION_MS INTEGER NOT NULL, Kind TEXT)
            """)
        try project.migrator(database).migrate()
        #expect(try project.migrator(database).currentVersion() == 3)
        #expect(try database.scalar("SELECT count(*) FROM cellar_migrations") == .integer(3))
    }

    @Test func aLedgerWhoseNameDiffersOnlyInASCIICaseIsCellarsAndStaysOutOfTheSchema() throws {
        let project = try MigrationProject(three)
        let database = try project.open()
        try database.execute(
            """
            CREATE TABLE Cellar_Migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL,
              applied_at TEXT NOT NULL, duration_ms INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'applied');
            CREATE TABLE CELLAR_SEEDS (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)
            """)
        try project.migrator(database).migrate()
        #expect(try project.migrator(database).currentVersion() == 3)
        #expect(try database.scalar("SELECT count(*) FROM cellar_migrations") == .integer(3))
        #expect(
            try database.scalar("SELECT count(*) FROM sqlite_schema WHERE name IN ('Cellar_Migrations', 'CELLAR_SEEDS')")
                == .integer(2))
        let schema = try database.schemaSQL()
        #expect(!schema.lowercased().contains("cellar_"))
        #expect(schema.contains("CREATE TABLE c (x);"))
    }

    @Test func aTempTableCannotShadowTheLedger() throws {
        let project = try MigrationProject([
            "1_shadow.sql":
                "CREATE TEMP TABLE cellar_migrations (version INTEGER PRIMARY KEY, name TEXT, checksum TEXT, applied_at TEXT, duration_ms INTEGER, kind TEXT);\n",
            "2_wineries.sql": wineries,
        ])
        let database = try project.open()
        try project.migrator(database).migrate()
        #expect(try database.scalar("SELECT count(*) FROM main.cellar_migrations") == .integer(2))
        #expect(try database.scalar("SELECT count(*) FROM temp.cellar_migrations") == .integer(0))
        #expect(try project.migrator(database).currentVersion() == 2)
        try project.migrator(database).rollback()
        #expect(try database.scalar("SELECT count(*) FROM main.cellar_migrations") == .integer(1))
    }

    @Test func aRollbackThatLeavesNothingAppliedForgetsTheSeedsInTheSameTransaction() throws {
        let project = try MigrationProject(three)
        try project.folder.write("seeds/1_wineries.sql", "INSERT INTO wineries (name) VALUES ('Ridge');\n")
        let database = try project.open()
        try project.migrator(database).migrate()
        try Seeder(database: database).run(try Seed.all(in: project.folder.file("seeds")))
        try project.migrator(database).rollback(.version(1))
        #expect(try database.scalar("SELECT count(*) FROM cellar_seeds") == .integer(1))
        try project.migrator(database).rollback(.version(0))
        #expect(try database.scalar("SELECT count(*) FROM cellar_seeds") == .integer(0))
        try project.migrator(database).migrate()
        let outcomes = try Seeder(database: database).run(try Seed.all(in: project.folder.file("seeds")))
        #expect(outcomes.map(\.wasSkipped) == [false])
        #expect(try database.scalar("SELECT count(*) FROM wineries") == .integer(1))
    }

    @Test func emptyUpAndDownSectionsAreNoOpsThatStillRecord() throws {
        let project = try MigrationProject([
            "1_wineries.sql": wineries,
            "2_placeholder.sql": "-- migrate:up\n-- This file should undo anything in `up.sql`\n-- migrate:down\n-- nothing\n",
        ])
        let database = try project.open()
        let migrator = try project.migrator(database)
        var events: [String] = []
        migrator.observer = { event in
            if case .emptySection(let migration, let isDown) = event { events.append("\(migration.version) \(isDown)") }
        }
        #expect(try migrator.migrate().map(\.migration.version) == [1, 2])
        #expect(try project.versions(database) == [1, 2])
        try migrator.rollback(.version(0))
        #expect(try project.versions(database).isEmpty)
        #expect(events == ["2 false", "2 true"])
    }

    @Test func theUntouchedTemplateIsRefusedAsNotWrittenYet() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries, "2_todo.sql": MigrationTemplate.text])
        let database = try project.open()
        #expect {
            try project.migrator(database).migrate()
        } throws: { error in
            guard case .unwritten(let path) = error as? MigrationError else { return false }
            return path.hasSuffix("2_todo.sql")
        }
        #expect(try project.tables(database).isEmpty)
    }
}
