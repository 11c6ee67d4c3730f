import CellarKit
import TestSupport
import Testing

/// A run checks the ledger's shape once and then lets each ledger statement compare the ledger's row in
/// `sqlite_schema` as it runs (`Ledger.Definition`): a ledger changed in the middle of the run, by one
/// of its migrations or by another connection, is checked again before the next migration is recorded
/// in it, and refused when it is no longer cellar's.
@Suite struct LedgerDefinitionTests {
    /// Replaces the ledger by a table of the same columns and rows but no PRIMARY KEY: a plain `INSERT`
    /// or `UPDATE` of the ledger still runs on it, so only a check of its shape can tell. (The last
    /// statement is there so that a `transaction:false` file's row is written, with it, to the new table.)
    private static let swapLedger = swap(version: "version INTEGER")

    /// The same with `version` declared as given.
    private static func swap(version: String) -> String {
        """
        CREATE TABLE swap (\(version), name TEXT, checksum TEXT, applied_at TEXT, duration_ms INTEGER, kind TEXT);
        INSERT INTO swap SELECT version, name, checksum, applied_at, duration_ms, kind FROM cellar_migrations;
        DROP TABLE cellar_migrations;
        ALTER TABLE swap RENAME TO cellar_migrations;
        CREATE TABLE swapped (x);

        """
    }

    private static let keyProblem = "column version is not its PRIMARY KEY"

    private static func header(_ isTransactional: Bool) -> String {
        isTransactional ? "-- migrate:up\n" : "-- migrate:up transaction:false\n"
    }

    /// The third migration's shapes: a transactional file, and `transaction:false` files claimed inside
    /// their own transaction, with their first statement, and apart (a `PRAGMA` that writes nothing
    /// cannot hold the claim, so the claim runs in a transaction of its own).
    private static let thirdMigrations = [
        "-- migrate:up\nCREATE TABLE third (x);\n",
        "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE third (x);\nCOMMIT;\n",
        "-- migrate:up transaction:false\nCREATE TABLE third (x);\n",
        "-- migrate:up transaction:false\nPRAGMA user_version = 7;\nCREATE TABLE third (x);\n",
    ]

    private func expectForeignLedger(_ problem: String, _ body: () throws -> Void) {
        #expect {
            try body()
        } throws: { error in
            guard case .foreignLedger("cellar_migrations", let found) = error as? MigrationError else { return false }
            return found == problem && "\(error)".hasPrefix("table main.cellar_migrations is not cellar's ledger")
        }
    }

    @Test(arguments: [true, false], thirdMigrations)
    func aMigrationThatMakesTheLedgerForeignStopsTheNextOneBeforeItRuns(swapIsTransactional: Bool, third: String) throws {
        let project = try MigrationProject([
            "1_first.sql": "-- migrate:up transaction:false\nCREATE TABLE first (x);\n",
            "2_swap.sql": Self.header(swapIsTransactional) + Self.swapLedger,
            "3_third.sql": third,
        ])
        let database = try project.open()
        expectForeignLedger(Self.keyProblem) { _ = try project.migrator(database).migrate() }
        #expect(!(try project.tables(database).contains("third")))
        #expect(try database.scalar("PRAGMA user_version") == .integer(0))
        #expect(try database.scalar("SELECT group_concat(version) FROM cellar_migrations") == .text("1,2"))
    }

    @Test(arguments: thirdMigrations)
    func anotherConnectionThatMakesTheLedgerForeignBetweenMigrationsIsCaughtToo(third: String) throws {
        let project = try MigrationProject([
            "1_first.sql": "-- migrate:up transaction:false\nCREATE TABLE first (x);\n",
            "2_second.sql": "CREATE TABLE second (x);\n",
            "3_third.sql": third,
        ])
        let database = try project.open()
        let other = try project.open()
        let migrator = try project.migrator(database)
        var swapError: (any Error)?
        migrator.observer = { event in
            guard case .finished(let outcome) = event, outcome.migration.version == 2 else { return }
            do { try other.execute(Self.swapLedger) } catch { swapError = error }
        }
        expectForeignLedger(Self.keyProblem) { _ = try migrator.migrate() }
        #expect(swapError == nil)
        #expect(!(try project.tables(database).contains("third")))
        #expect(try database.scalar("PRAGMA user_version") == .integer(0))
    }

    @Test(arguments: [true, false])
    func aLedgerChangedInAWayThatStillFitsIsCheckedAgainAndUsed(isTransactional: Bool) throws {
        let project = try MigrationProject([
            "1_first.sql": "-- migrate:up transaction:false\nCREATE TABLE first (x);\n",
            "2_note.sql": Self.header(isTransactional) + "ALTER TABLE cellar_migrations ADD COLUMN note TEXT;\n",
            "3_rebuilt.sql": Self.header(isTransactional)
                + Self.swap(version: "version INTEGER PRIMARY KEY"),
            "4_third.sql": "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE third (x);\nCOMMIT;\n",
            "5_fourth.sql": "CREATE TABLE fourth (x);\n",
        ])
        let database = try project.open()
        let migrator = try project.migrator(database)
        #expect(try migrator.migrate().map(\.migration.version) == [1, 2, 3, 4, 5])
        #expect(try project.versions(database) == [1, 2, 3, 4, 5])
        #expect(
            try database.scalar("SELECT group_concat(kind) FROM cellar_migrations")
                == .text(
                    "applied,applied,applied,applied,applied"))
        #expect(try migrator.migrate().isEmpty)
    }

    @Test func aLedgerColumnRenamedByATransactionFalseMigrationIsNamedAsMissing() throws {
        let project = try MigrationProject([
            "1_first.sql": "CREATE TABLE first (x);\n",
            "2_rename.sql": Self.header(false) + "ALTER TABLE cellar_migrations RENAME COLUMN name TO title;\n",
            "3_third.sql": "-- migrate:up transaction:false\nCREATE TABLE third (x);\n",
        ])
        let database = try project.open()
        // The claim's statement, prepared for the ledger as it was, no longer prepares: the shape is checked.
        expectForeignLedger("it has no column name") { _ = try project.migrator(database).migrate() }
        #expect(!(try project.tables(database).contains("third")))
    }

    @Test func aLedgerColumnRenamedByATransactionalMigrationFailsItAndIsRolledBackWithIt() throws {
        let project = try MigrationProject([
            "1_first.sql": "CREATE TABLE first (x);\n",
            "2_rename.sql": "ALTER TABLE cellar_migrations RENAME COLUMN name TO title;\n",
        ])
        let database = try project.open()
        #expect {
            try project.migrator(database).migrate()
        } throws: { error in
            guard case .failed(let diagnostic) = error as? MigrationError else { return false }
            return diagnostic.message.contains("no column named name")
        }
        #expect(try project.versions(database) == [1])
        #expect(try project.migrator(database).status().map(\.state) == [.applied, .pending])
    }

    /// A ledger that cellar made is written by statements that rely on its column order and its
    /// `version` being the rowid (they compile in fewer instructions); one rebuilt with the same columns
    /// in another order is written by statements that name them, so each value lands in its column.
    @Test func aLedgerCellarMadeIsKnownByItsTextAndOneWithItsColumnsReorderedIsWrittenByName() throws {
        let reordered = """
            CREATE TABLE swap (kind TEXT NOT NULL DEFAULT 'applied', duration_ms INTEGER NOT NULL, applied_at TEXT NOT NULL,
              checksum TEXT NOT NULL, name TEXT NOT NULL, version INTEGER PRIMARY KEY);
            INSERT INTO swap (version, name, checksum, applied_at, duration_ms, kind)
              SELECT version, name, checksum, applied_at, duration_ms, kind FROM cellar_migrations;
            DROP TABLE cellar_migrations;
            ALTER TABLE swap RENAME TO cellar_migrations;

            """
        let project = try MigrationProject([
            "1_first.sql": "CREATE TABLE first (x);\n",
            "2_reorder.sql": reordered,
            "3_own.sql": "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE third (x);\nCOMMIT;\n",
            "4_alone.sql": "-- migrate:up transaction:false\nCREATE TABLE fourth (x);\n",
            "5_fifth.sql": "CREATE TABLE fifth (x);\n",
        ])
        let database = try project.open()
        let migrator = try project.migrator(database)
        #expect(try migrator.migrate(to: 1).count == 1)
        #expect(
            try database.scalar("SELECT sql FROM sqlite_schema WHERE name = 'cellar_migrations'")
                == .text(Ledger.createdMigrationsText))
        #expect(try migrator.migrate().map(\.migration.version) == [2, 3, 4, 5])
        let rows = try database.query(
            "SELECT version, name, kind, length(checksum), duration_ms >= 0 FROM cellar_migrations ORDER BY version")
        #expect(
            rows.map { $0.values } == [
                [.integer(1), .text("first"), .text("applied"), .integer(64), .integer(1)],
                [.integer(2), .text("reorder"), .text("applied"), .integer(64), .integer(1)],
                [.integer(3), .text("own"), .text("applied"), .integer(64), .integer(1)],
                [.integer(4), .text("alone"), .text("applied"), .integer(64), .integer(1)],
                [.integer(5), .text("fifth"), .text("applied"), .integer(64), .integer(1)],
            ])
        #expect(try migrator.migrate().isEmpty)
        #expect(try project.migrator(try project.open()).migrate().isEmpty)
    }
}
