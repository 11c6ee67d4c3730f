import CellarKit
import TestSupport
import Testing

/// Issue 26: a `transaction:false` migration writes its claim with its first statement that writes (inside
/// the transaction of a `BEGIN`, or in one transaction with a statement that writes only tables and the
/// schema) and its ledger row with its last, so that it costs at most one commit more than its own
/// statements make, keeping what a failure leaves.
@Suite struct NonTransactionalCommitTests {
    /// The database header's file change counter (bytes 24–27, big-endian), which SQLite increments once
    /// for every write transaction it commits in a rollback-journal mode
    /// (<https://sqlite.org/fileformat2.html#file_change_counter>).
    private func commitCounter(_ path: String) throws -> UInt32 {
        let bytes = try FileBytes.read(path)
        return bytes[24..<28].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The commits `migrate` makes for the one file `up` (after a first transactional migration that
    /// creates the ledger), and the database.
    private func commits(of up: String) throws -> (count: UInt32, project: MigrationProject, database: Database) {
        let project = try MigrationProject(["1_first.sql": wineries, "2_own.sql": "-- migrate:up transaction:false\n" + up])
        let database = try project.open()
        try project.migrator(database).migrate(to: 1)
        let before = try commitCounter(project.databasePath)
        try project.migrator(database).migrate()
        return (try commitCounter(project.databasePath) - before, project, database)
    }

    /// The commits the statements of `up` make by themselves, run as sqlite3 runs a file (each outside a
    /// transaction of the file's own commits alone) on a database at the same version.
    private func ownCommits(of up: String) throws -> UInt32 {
        let project = try MigrationProject(["1_first.sql": wineries])
        let database = try project.open()
        try project.migrator(database).migrate()
        let before = try commitCounter(project.databasePath)
        try database.execute(up)
        return try commitCounter(project.databasePath) - before
    }

    /// Files of every shape: statements on their own, their own transactions first, last, in the
    /// middle, pragmas around them, nothing that writes, a `VACUUM`. Each costs at most one commit more
    /// than its statements make alone (the naive version, a claim and a ledger row apart: two more).
    @Test(arguments: [
        "CREATE TABLE own (x);\nINSERT INTO own VALUES (1);\nINSERT INTO own VALUES (2);\n",
        "CREATE TABLE own (x);\n",
        "PRAGMA foreign_keys = OFF;\nCREATE TABLE own (x);\nINSERT INTO own VALUES (1);\nPRAGMA foreign_keys = ON;\n",
        "PRAGMA foreign_keys = OFF;\nBEGIN;\nCREATE TABLE own (x);\nINSERT INTO own SELECT id FROM wineries;\n"
            + "DROP TABLE wineries;\nALTER TABLE own RENAME TO wineries;\nCOMMIT;\nPRAGMA foreign_keys = ON;\n",
        "CREATE TABLE own (x);\nBEGIN;\nINSERT INTO own VALUES (1);\nCOMMIT;\nINSERT INTO own VALUES (2);\n",
        "SELECT count(*) FROM wineries;\n",
        "PRAGMA foreign_keys = OFF;\n",
        "VACUUM;\nCREATE TABLE own (x);\n",
        "CREATE TABLE own (x);\nVACUUM;\n",
        "PRAGMA user_version = 7;\nCREATE TABLE own (x);\n",
        "SAVEPOINT s;\nCREATE TABLE own (x);\nRELEASE s;\n",
    ])
    func aFileCostsAtMostOneCommitMoreThanItsStatements(up: String) throws {
        let (count, project, database) = try commits(of: up)
        let own = try ownCommits(of: up)
        #expect(count <= own + 1, "\(count) commits for \(own) of the file's own")
        #expect(try project.versions(database) == [1, 2])
        #expect(try database.scalar("SELECT kind FROM cellar_migrations WHERE version = 2") == .text("applied"))
    }

    @Test func statementsOnTheirOwnCostNoCommitMore() throws {
        let up = "CREATE TABLE own (x);\nINSERT INTO own VALUES (1);\nINSERT INTO own VALUES (2);\n"
        let (count, _, database) = try commits(of: up)
        // The claim commits with the first statement, the ledger row with the last.
        #expect(count == 3)
        #expect(try ownCommits(of: up) == 3)
        #expect(try database.scalar("SELECT count(*) FROM own") == .integer(2))
    }

    @Test func aFileThatWritesNothingCostsOneCommit() throws {
        let (count, project, database) = try commits(of: "PRAGMA foreign_keys = OFF;\nSELECT 1;\n")
        #expect(count == 1)
        #expect(try project.migrator(database).status().map(\.state) == [.applied, .applied])
    }

    @Test func aFileThatIsOneTransactionCostsNoCommitOfItsOwn() throws {
        let (count, project, database) = try commits(of: "BEGIN;\nCREATE TABLE own (x);\nINSERT INTO own VALUES (1);\nCOMMIT;\n")
        // The naive version: a claim, the file's transaction and the ledger row, three commits.
        #expect(count == 1)
        #expect(try project.versions(database) == [1, 2])
        #expect(try database.scalar("SELECT kind FROM cellar_migrations WHERE version = 2") == .text("applied"))
        #expect(try database.scalar("SELECT count(*) FROM own") == .integer(1))
    }

    @Test func endAndBeginImmediateCountAsTheFilesOwnTransaction() throws {
        let (count, _, database) = try commits(of: "BEGIN IMMEDIATE;\nCREATE TABLE own (x);\nEND;\n")
        #expect(count == 1)
        #expect(try database.scalar("SELECT kind FROM cellar_migrations WHERE version = 2") == .text("applied"))
    }

    @Test func aFileEndingInItsOwnTransactionCostsNoCommitMore() throws {
        let (count, _, database) = try commits(of: "CREATE TABLE own (x);\nBEGIN;\nINSERT INTO own VALUES (1);\nCOMMIT;\n")
        #expect(count == 2)
        #expect(try database.scalar("SELECT kind FROM cellar_migrations WHERE version = 2") == .text("applied"))
    }

    @Test func aFileStartingWithItsOwnTransactionCostsNoCommitMore() throws {
        let (count, _, database) = try commits(of: "BEGIN;\nCREATE TABLE own (x);\nCOMMIT;\nCREATE TABLE after (x);\n")
        #expect(count == 2)
        #expect(try database.scalar("SELECT kind FROM cellar_migrations WHERE version = 2") == .text("applied"))
    }

    @Test func theChangedRowsLeaveTheLedgerOut() throws {
        let project = try MigrationProject([
            "1_own.sql":
                "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE own (x);\nINSERT INTO own VALUES (1), (2);\nCOMMIT;\n"
        ])
        let database = try project.open()
        let outcomes = try project.migrator(database).migrate()
        #expect(outcomes.map(\.changedRows) == [2])
        #expect(outcomes.map(\.statementCount) == [4])
    }

    @Test func aFileEndingInRollbackIsRecordedApart() throws {
        let (count, _, database) = try commits(of: "CREATE TABLE own (x);\nBEGIN;\nINSERT INTO own VALUES (1);\nROLLBACK;\n")
        #expect(count == 2)
        #expect(try database.scalar("SELECT count(*) FROM own") == .integer(0))
        #expect(try database.scalar("SELECT kind FROM cellar_migrations WHERE version = 2") == .text("applied"))
    }

    @Test func aFailureInTheFirstTransactionLeavesNoClaimAndNothingDone() throws {
        let project = try MigrationProject([
            "1_own.sql": "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE own (x);\nSELECT no_such_column;\nCOMMIT;\n"
        ])
        let database = try project.open()
        #expect(throws: MigrationError.self) { try project.migrator(database).migrate() }
        #expect(try project.migrator(database).status().map(\.state) == [.pending])
        #expect(try project.tables(database).contains("own") == false)
        #expect(try database.isAutocommit)
    }

    @Test func aFailureInTheLastTransactionRemovesTheClaimAndKeepsWhatRanBefore() throws {
        let project = try MigrationProject([
            "1_own.sql":
                "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE own (x);\nCOMMIT;\nBEGIN;\nINSERT INTO own VALUES (1);\n"
                + "INSERT INTO missing VALUES (1);\nCOMMIT;\n"
        ])
        let database = try project.open()
        #expect(throws: MigrationError.self) { try project.migrator(database).migrate() }
        #expect(try database.scalar("SELECT count(*) FROM cellar_migrations") == .integer(0))
        #expect(try project.migrator(database).status().map(\.state) == [.pending])
        #expect(try database.scalar("SELECT count(*) FROM own") == .integer(0))
    }

    @Test func aFirstTransactionLeftOpenTakesTheClaimWithItsRollback() throws {
        let project = try MigrationProject(["1_own.sql": "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE own (x);\n"])
        let database = try project.open()
        #expect(throws: MigrationError.self) { try project.migrator(database).migrate() }
        #expect(try project.migrator(database).status().map(\.state) == [.pending])
        #expect(try project.tables(database).contains("own") == false)
    }

    @Test func aFailingCommitRollsTheLedgerRowBackWithTheTransaction() throws {
        // A deferred foreign key is checked at COMMIT, which then fails and leaves the transaction open.
        let project = try MigrationProject([
            "1_own.sql":
                "-- migrate:up transaction:false\nPRAGMA foreign_keys = ON;\nCREATE TABLE parent (id INTEGER PRIMARY KEY);\n"
                + "CREATE TABLE child (p REFERENCES parent DEFERRABLE INITIALLY DEFERRED);\nBEGIN;\n"
                + "INSERT INTO child VALUES (7);\nCOMMIT;\n"
        ])
        let database = try project.open()
        #expect(throws: MigrationError.self) { try project.migrator(database).migrate() }
        #expect(try database.scalar("SELECT count(*) FROM cellar_migrations") == .integer(0))
        #expect(try database.scalar("SELECT count(*) FROM child") == .integer(0))
        #expect(try database.isAutocommit)
    }

    @Test func aFailingFirstStatementLeavesNoClaim() throws {
        let project = try MigrationProject([
            "1_first.sql": wineries,
            "2_own.sql": "-- migrate:up transaction:false\nINSERT INTO wineries VALUES (1, NULL);\nCREATE TABLE own (x);\n",
        ])
        let database = try project.open()
        try project.migrator(database).migrate(to: 1)
        let before = try commitCounter(project.databasePath)
        #expect {
            try project.migrator(database).migrate()
        } throws: { error in
            "\(error)".contains("2_own.sql:2:1") && "\(error)".contains("NOT NULL constraint failed")
        }
        // The claim was in the statement's transaction, which rolled back: nothing was committed.
        #expect(try commitCounter(project.databasePath) == before)
        #expect(try project.migrator(database).status().map(\.state) == [.applied, .pending])
        #expect(try database.isAutocommit)
    }

    @Test func aDeferredConstraintFailingWithTheLastStatementIsPlacedThereAndRemovesTheClaim() throws {
        let project = try MigrationProject([
            "1_own.sql":
                "-- migrate:up transaction:false\nPRAGMA foreign_keys = ON;\nCREATE TABLE parent (id INTEGER PRIMARY KEY);\n"
                + "CREATE TABLE child (p REFERENCES parent DEFERRABLE INITIALLY DEFERRED);\nINSERT INTO child VALUES (7);\n"
        ])
        let database = try project.open()
        #expect {
            try project.migrator(database).migrate()
        } throws: { error in
            "\(error)".contains("1_own.sql:5:1") && "\(error)".contains("FOREIGN KEY constraint failed")
        }
        #expect(try database.scalar("SELECT count(*) FROM cellar_migrations") == .integer(0))
        #expect(try database.scalar("SELECT count(*) FROM child") == .integer(0))
        #expect(try project.tables(database).contains("parent"))
        #expect(try database.isAutocommit)
    }

    @Test(arguments: [
        "BEGIN;\nCREATE TABLE own (x);\nCOMMIT;\n", "PRAGMA foreign_keys = OFF;\nCREATE TABLE own (x);\nCREATE TABLE more (x);\n",
    ])
    func aClaimMetInsideTheFirstTransactionIsWaitedForThenRefused(up: String) throws {
        let project = try MigrationProject(["1_own.sql": "-- migrate:up transaction:false\n" + up])
        let database = try Database(path: project.databasePath, options: .init(busyTimeout: 100))
        try database.execute(Ledger.createMigrations)
        // What a process killed between its claim and its last statement leaves behind.
        try database.execute(
            "INSERT INTO cellar_migrations VALUES (1, 'own', 'x', '2026-01-01T00:00:00Z', 0, 'unfinished')")
        #expect {
            try project.migrator(database).migrate()
        } throws: { error in
            guard case .unfinished(let version, _, _) = error as? MigrationError else { return false }
            return version == 1
        }
        #expect(try project.tables(database).contains("own") == false)
        #expect(try database.scalar("SELECT kind FROM cellar_migrations") == .text("unfinished"))
        #expect(try database.isAutocommit)
    }
}
