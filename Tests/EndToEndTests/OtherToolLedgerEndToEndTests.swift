import CellarKit
import Glibc
import TestSupport
import Testing

/// A project moving to cellar from dbmate, goose, golang-migrate, sql-migrate, diesel or sqlx: cellar
/// refuses to migrate over the other tool's ledger, `adopt` records what it holds, and a migration the
/// other tool applied never runs again. Each project's migrations insert a row without `IF NOT EXISTS`
/// guards on the data, so that a second run would show as a duplicate row.
@Suite struct OtherToolLedgerEndToEndTests {
    /// Three migrations, each inserting one row; the first creates the table so that it can run twice.
    static func writeMigrations(
        in folder: TemporaryDirectory, versions: [String] = ["1", "2", "3"], under: String = "migrations"
    )
        throws
    {
        for (index, version) in versions.enumerated() {
            let create = index == 0 ? "CREATE TABLE IF NOT EXISTS visits (n INTEGER);\n" : ""
            try folder.write(
                "\(under)/\(version)_step\(index + 1).sql",
                "-- migrate:up\n\(create)INSERT INTO visits VALUES (\(index + 1));\n-- migrate:down\nDELETE FROM visits WHERE n = \(index + 1);\n"
            )
        }
    }

    static func visits(_ path: String) throws -> [Int64] {
        try Database(path: path).query("SELECT n FROM visits ORDER BY rowid").map { try $0.decode(Int64.self, at: 0) }
    }

    static func ledger(_ path: String) throws -> [String] {
        try Database(path: path).query("SELECT version || ' ' || kind || ' ' || checksum FROM cellar_migrations ORDER BY version")
            .map { try $0.decode(String.self, at: 0) }
    }

    static func rows(of table: String, in path: String) throws -> [[Value]] {
        try Database(path: path).query("SELECT * FROM \"\(table)\" ORDER BY 1").map(\.values)
    }

    /// `migrate`, `setup` and `status` refuse, naming the tool and `cellar adopt`, and change nothing.
    static func expectRefusals(_ tool: String, in folder: TemporaryDirectory, database: String) throws {
        let before = try DatabaseFingerprint.lines(of: folder.file(database))
        for command in [["migrate"], ["setup"], ["status"]] {
            let result = try Cellar.run(command + ["-d", database], in: folder.path)
            #expect(result.status == 1, "\(command): \(result)")
            #expect(result.error.contains("\(tool)'s ledger"), "\(command): \(result.error)")
            #expect(result.error.contains("cellar adopt"), "\(command): \(result.error)")
        }
        #expect(try DatabaseFingerprint.lines(of: folder.file(database)) == before)
    }

    @Test(.enabled(if: PeerTool.dbmate.isExpected, "\(PeerTool.dbmate.skipReason)"))
    func dbmateLedgerMadeByDbmateIsAdoptedAndNoMigrationRunsTwice() throws {
        let dbmate = try PeerTool.dbmate.require()
        let folder = TemporaryDirectory()
        try Self.writeMigrations(in: folder, versions: ["20261201000001", "20261201000002"], under: "db/migrations")
        let made = try Shell.run(
            dbmate, ["--url", "sqlite:db/app.sqlite3", "--no-dump-schema", "up"], environment: Cellar.cleanEnvironment,
            directory: folder.path)
        #expect(made.status == 0, "\(made)")
        #expect(try Self.visits(folder.file("db/app.sqlite3")) == [1, 2])
        try Self.expectRefusals("dbmate", in: folder, database: "db/app.sqlite3")
        let theirs = try Self.rows(of: "schema_migrations", in: folder.file("db/app.sqlite3"))

        let adopted = try Cellar.run(["adopt", "-d", "db/app.sqlite3", "-m", "db/migrations"], in: folder.path)
        #expect(adopted.status == 0, "\(adopted)")
        #expect(adopted.output.contains("adopted 2 migrations from dbmate's ledger"), "\(adopted.output)")
        let files = try MigrationSource.folder(folder.file("db/migrations")).load()
        #expect(try Self.ledger(folder.file("db/app.sqlite3")) == files.map { "\($0.version) adopted \($0.checksum)" })
        #expect(try Self.rows(of: "schema_migrations", in: folder.file("db/app.sqlite3")) == theirs)

        try Self.writeMigrations(
            in: folder, versions: ["20261201000001", "20261201000002", "20261201000003"], under: "db/migrations")
        let migrated = try Cellar.run(["migrate", "-d", "db/app.sqlite3", "-m", "db/migrations"], in: folder.path)
        #expect(migrated.status == 0, "\(migrated)")
        #expect(try Self.visits(folder.file("db/app.sqlite3")) == [1, 2, 3])
    }

    @Test(.enabled(if: PeerTool.sqlMigrate.isExpected, "\(PeerTool.sqlMigrate.skipReason)"))
    func sqlMigrateLedgerMadeBySqlMigrateIsAdoptedAndNoMigrationRunsTwice() throws {
        let sqlMigrate = try PeerTool.sqlMigrate.require()
        let folder = TemporaryDirectory()
        // Written as sql-migrate's documentation shows; cellar never runs them (they are adopted).
        try folder.write("dbconfig.yml", "development:\n    dialect: sqlite3\n    datasource: app.db\n    dir: migrations\n")
        for (version, value) in [(1, 1), (2, 2)] {
            let create = version == 1 ? "CREATE TABLE IF NOT EXISTS visits (n INTEGER);\n" : ""
            try folder.write(
                "migrations/\(version)_step.sql",
                "-- +migrate Up\n\(create)INSERT INTO visits VALUES (\(value));\n-- +migrate Down\nDELETE FROM visits;\n")
        }
        let made = try Shell.run(sqlMigrate, ["up"], environment: Cellar.cleanEnvironment, directory: folder.path)
        #expect(made.status == 0, "\(made)")
        #expect(try Self.visits(folder.file("app.db")) == [1, 2])
        try Self.expectRefusals("sql-migrate", in: folder, database: "app.db")

        let adopted = try Cellar.run(["adopt", "-d", "app.db"], in: folder.path)
        #expect(adopted.status == 0, "\(adopted)")
        #expect(adopted.output.contains("adopted 2 migrations from sql-migrate's ledger (gorp_migrations"), "\(adopted)")
        try folder.write("migrations/3_step.sql", "-- migrate:up\nINSERT INTO visits VALUES (3);\n")
        let migrated = try Cellar.run(["migrate", "-d", "app.db"], in: folder.path)
        #expect(migrated.status == 0, "\(migrated)")
        #expect(try Self.visits(folder.file("app.db")) == [1, 2, 3])
        #expect(try Self.ledger(folder.file("app.db")).map { String($0.prefix(9)) } == ["1 adopted", "2 adopted", "3 applied"])
    }

    /// The other tools' ledgers as their SQLite drivers create them, holding migrations 1 and 2 (goose
    /// also a rolled-back 3, as goose before v3 records it).
    static let documentedLedgers: [(tool: String, table: String, sql: String)] = [
        (
            "goose", "goose_db_version",
            """
            CREATE TABLE goose_db_version (id INTEGER PRIMARY KEY AUTOINCREMENT, version_id INTEGER NOT NULL,
              is_applied INTEGER NOT NULL, tstamp TIMESTAMP DEFAULT (datetime('now')));
            INSERT INTO goose_db_version (version_id, is_applied) VALUES (0, 1), (1, 1), (2, 1), (3, 1), (3, 0);
            """
        ),
        (
            "golang-migrate", "schema_migrations",
            """
            CREATE TABLE schema_migrations (version uint64, dirty bool);
            CREATE UNIQUE INDEX version_unique ON schema_migrations (version);
            INSERT INTO schema_migrations VALUES (2, 0);
            """
        ),
        (
            "diesel", "__diesel_schema_migrations",
            """
            CREATE TABLE __diesel_schema_migrations (version VARCHAR(50) PRIMARY KEY NOT NULL,
              run_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP);
            INSERT INTO __diesel_schema_migrations (version) VALUES ('00000000000001'), ('00000000000002');
            """
        ),
        (
            "sqlx", "_sqlx_migrations",
            """
            CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL,
              installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL,
              checksum BLOB NOT NULL, execution_time BIGINT NOT NULL);
            INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
              VALUES (1, 'step1', TRUE, x'00', 1), (2, 'step2', TRUE, x'00', 1);
            """
        ),
    ]

    @Test(arguments: 0..<documentedLedgers.count)
    func documentedLedgerIsRefusedThenAdoptedAndOnlyTheNewMigrationRuns(_ index: Int) throws {
        let (tool, table, sql) = Self.documentedLedgers[index]
        let folder = TemporaryDirectory()
        try Self.writeMigrations(in: folder)
        let database = try Database(path: folder.file("app.db"))
        try database.execute("CREATE TABLE visits (n INTEGER); INSERT INTO visits VALUES (1), (2);")
        try database.execute(sql)
        let theirs = try Self.rows(of: table, in: folder.file("app.db"))
        try Self.expectRefusals(tool, in: folder, database: "app.db")

        let adopted = try Cellar.run(["adopt", "-d", "app.db"], in: folder.path)
        #expect(adopted.status == 0, "\(adopted)")
        #expect(adopted.output.contains("adopted 2 migrations from \(tool)'s ledger (\(table)"), "\(adopted)")
        #expect(try Self.rows(of: table, in: folder.file("app.db")) == theirs)
        let migrated = try Cellar.run(["migrate", "-d", "app.db"], in: folder.path)
        #expect(migrated.status == 0, "\(migrated)")
        #expect(try Self.visits(folder.file("app.db")) == [1, 2, 3])
        #expect(try Self.ledger(folder.file("app.db")).map { String($0.prefix(9)) } == ["1 adopted", "2 adopted", "3 applied"])

        let again = try Cellar.run(["adopt", "-d", "app.db"], in: folder.path)
        #expect(again.status == 0, "\(again)")
        #expect(again.output.contains("adopted 0 migrations") && again.output.contains("2 already recorded"), "\(again)")
    }

    @Test(arguments: [
        (
            "golang-migrate",
            "CREATE TABLE schema_migrations (version uint64, dirty bool); INSERT INTO schema_migrations VALUES (2, 1);"
        ),
        (
            "sqlx",
            """
            CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL,
              installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL,
              checksum BLOB NOT NULL, execution_time BIGINT NOT NULL);
            INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
              VALUES (1, 'step1', TRUE, x'00', 1), (2, 'step2', FALSE, x'00', 1);
            """
        ),
    ])
    func dirtyLedgerIsNotAdopted(_ tool: String, _ sql: String) throws {
        let folder = TemporaryDirectory()
        try Self.writeMigrations(in: folder)
        try Database(path: folder.file("app.db")).execute(sql)
        let before = try DatabaseFingerprint.lines(of: folder.file("app.db"))
        let result = try Cellar.run(["adopt", "-d", "app.db"], in: folder.path)
        #expect(result.status == 1, "\(result)")
        #expect(result.error.contains("\(tool)'s ledger") && result.error.contains("is dirty at version 2"), "\(result.error)")
        #expect(try DatabaseFingerprint.lines(of: folder.file("app.db")) == before)
    }

    @Test func versionsWithoutAFileAreNamedAndNotRecorded() throws {
        let folder = TemporaryDirectory()
        try Self.writeMigrations(in: folder, versions: ["1"])
        try Database(path: folder.file("app.db")).execute(
            "CREATE TABLE schema_migrations (version varchar(128) PRIMARY KEY); INSERT INTO schema_migrations VALUES ('1'), ('7');"
        )
        let result = try Cellar.run(["adopt", "-d", "app.db"], in: folder.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.error.contains("dbmate's ledger also records 7, which no file"), "\(result.error)")
        #expect(try Self.ledger(folder.file("app.db")).map { String($0.prefix(9)) } == ["1 adopted"])
    }

    @Test func adoptWithoutAnotherLedgerFailsAndCreatesNothing() throws {
        let folder = TemporaryDirectory()
        try Self.writeMigrations(in: folder)
        try Database(path: folder.file("app.db")).execute("CREATE TABLE visits (n INTEGER)")
        let result = try Cellar.run(["adopt", "-d", "app.db"], in: folder.path)
        #expect(result.status == 1, "\(result)")
        #expect(result.error.contains("holds no other tool's ledger"), "\(result.error)")
        #expect(try tableNames(folder.file("app.db")) == ["visits"])
    }
}
