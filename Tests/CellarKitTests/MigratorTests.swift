import CellarKit
import TestSupport
import Testing

@Suite struct MigratorTests {
    @Test func appliesEveryMigrationInVersionOrderAndRecordsIt() throws {
        let project = try MigrationProject(["0002_wine.sql": wine, "1_wineries.sql": wineries, "README.md": "not a migration"])
        let database = try project.open()
        let outcomes = try project.migrator(database).migrate()
        #expect(outcomes.map(\.migration.version) == [1, 2])
        #expect(try project.tables(database) == ["cellar_migrations", "wine", "wineries"])
        let rows = try database.query("SELECT version, name, checksum, applied_at, duration_ms FROM cellar_migrations")
        #expect(rows.map { $0[0] } == [.integer(1), .integer(2)])
        #expect(rows.map { $0[1] } == [.text("wineries"), .text("wine")])
        #expect(rows[0][2] == .text(try project.migrator(database).migrations[0].checksum))
        if case .text(let appliedAt) = rows[0][3] {
            #expect(appliedAt.count == 20 && appliedAt.hasSuffix("Z") && appliedAt.contains("T"))
        } else {
            Issue.record("applied_at is not text")
        }
        #expect(try project.migrator(database).migrate().isEmpty)
    }

    @Test func traceShowsSPECsSequenceOfStatements() throws {
        let project = try MigrationProject(["0001_wineries.sql": wineries])
        let database = try project.open()
        try database.execute("PRAGMA foreign_keys = ON")
        let migrator = try project.migrator(database)
        var statements: [String] = []
        try database.trace { statements.append($0) }
        try migrator.migrate()
        try database.trace(nil)
        let fromBegin = Array(statements.drop { $0 != "PRAGMA foreign_keys = OFF" })
        #expect(
            fromBegin.map { $0.split(separator: "\n").first.map(String.init) ?? "" } == [
                "PRAGMA foreign_keys = OFF",
                "BEGIN IMMEDIATE",
                "SELECT type, rowid, sql FROM main.sqlite_schema WHERE name = 'cellar_migrations' COLLATE NOCASE ORDER BY rowid LIMIT 1",
                "CREATE TABLE IF NOT EXISTS main.cellar_migrations (",
                "SELECT rowid, sql FROM main.sqlite_schema WHERE type = 'table' AND name = 'cellar_migrations' COLLATE NOCASE",
                "SELECT count(*) FROM main.cellar_migrations WHERE version = ?",
                "PRAGMA foreign_key_check",
                "CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);",
                "PRAGMA foreign_key_check",
                "INSERT INTO main.cellar_migrations (version, name, checksum, applied_at, duration_ms, kind)",
                "COMMIT",
                "PRAGMA foreign_keys = ON",
            ])
        #expect(try database.scalar("PRAGMA foreign_keys") == .integer(1))
    }

    // MARK: - Failures roll back

    @Test func failingMigrationRollsBackAndNamesItsPlace() throws {
        let broken =
            "-- migrate:up\nCREATE TABLE wine (\n  id INTEGER PRIMARY KEY,\n  rating integer producer_id integer foreign key references wineries(id)\n);\n"
        let project = try MigrationProject(["0001_wineries.sql": wineries, "0002_create_wine.sql": broken])
        let database = try project.open()
        do {
            try project.migrator(database).migrate()
            Issue.record("the broken migration was applied")
        } catch let error as MigrationError {
            let diagnostic = try #require(error.diagnostic)
            #expect(diagnostic.path == project.migrationsPath + "/0002_create_wine.sql")
            #expect(diagnostic.location == SourceLocation(line: 4, column: 38))
            #expect(diagnostic.message == "near \"foreign\": syntax error")
            #expect(diagnostic.sourceLine == "  rating integer producer_id integer foreign key references wineries(id)")
            #expect(diagnostic.notes == ["migration 0002 rolled back; the database is still at version 1"])
        }
        #expect(try project.versions(database) == [1])
        #expect(try project.tables(database) == ["cellar_migrations", "wineries"])
    }

    @Test func stepTimeErrorPointsAtTheStatementStart() throws {
        let project = try MigrationProject([
            "1_a.sql": "CREATE TABLE t (x UNIQUE);\nINSERT INTO t VALUES (1);\n  INSERT INTO t VALUES (1);\n"
        ])
        let database = try project.open()
        #expect {
            try project.migrator(database).migrate()
        } throws: { error in
            let diagnostic = (error as? MigrationError)?.diagnostic
            return diagnostic?.location == SourceLocation(line: 3, column: 3) && diagnostic?.message.contains("UNIQUE") == true
        }
        #expect(try project.tables(database).isEmpty)
    }

    @Test(arguments: ["COMMIT;", "BEGIN;", "END;", "ROLLBACK;", "BEGIN IMMEDIATE TRANSACTION;"])
    func transactionControlIsRefusedBeforeItRuns(statement: String) throws {
        let project = try MigrationProject(["1_a.sql": "CREATE TABLE t (x);\n\(statement)\nCREATE TABLE u (x);\n"])
        let database = try project.open()
        #expect {
            try project.migrator(database).migrate()
        } throws: { error in
            let diagnostic = (error as? MigrationError)?.diagnostic
            return diagnostic?.location == SourceLocation(line: 2, column: 1)
                && diagnostic?.message.contains("is not allowed here") == true
                && diagnostic?.message.contains("transaction:false") == true
        }
        #expect(try project.tables(database).isEmpty)
        #expect(try database.isAutocommit)
    }

    @Test func savepointsStayAllowed() throws {
        let project = try MigrationProject([
            "1_a.sql": "SAVEPOINT s; CREATE TABLE t (x); ROLLBACK TO s; RELEASE s; CREATE TABLE u (x);"
        ])
        let database = try project.open()
        try project.migrator(database).migrate()
        #expect(try project.tables(database) == ["cellar_migrations", "u"])
    }

    @Test func newForeignKeyViolationFailsTheMigration() throws {
        let project = try MigrationProject([
            "1_wineries.sql": wineries, "2_wine.sql": wine,
            "3_orphan.sql": "INSERT INTO wineries VALUES (1, 'Ridge');\nINSERT INTO wine VALUES (7, 'Lost', 42);\n",
        ])
        let database = try project.open()
        #expect {
            try project.migrator(database).migrate()
        } throws: { error in
            guard case .foreignKeyViolations(_, let violations, let notes) = error as? MigrationError else { return false }
            return violations == [ForeignKeyViolation(table: "wine", rowid: 7, parent: "wineries", foreignKeyIndex: 0)]
                && notes == ["migration 3 rolled back; the database is still at version 2"]
                && (error as? MigrationError)?.diagnostic?.message
                    == "foreign key violation: wine rowid 7 has no parent row in wineries"
        }
        #expect(try project.versions(database) == [1, 2])
        #expect(try database.scalar("SELECT count(*) FROM wineries") == .integer(0))
    }

    @Test func violationsPresentBeforeAreOnlyAWarning() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries, "2_wine.sql": wine])
        let database = try project.open()
        try project.migrator(database).migrate(Migrator.Options(target: 2))
        try database.execute("INSERT INTO wine VALUES (1, 'Old orphan', 99)")
        try project.folder.write("migrations/3_more.sql", "CREATE TABLE notes (x);")
        let migrator = try project.migrator(database)
        var warnings: [[ForeignKeyViolation]] = []
        migrator.observer = { event in
            if case .foreignKeyWarning(_, let violations) = event { warnings.append(violations) }
        }
        try migrator.migrate()
        #expect(warnings.count == 1)
        #expect(warnings.first?.first?.rowid == 1)
        #expect(try project.versions(database) == [1, 2, 3])
    }

    // MARK: - Options and concurrency

    @Test func outOfOrderPendingMigrationIsRefusedUnlessAllowed() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries, "3_c.sql": "CREATE TABLE c (x);"])
        let database = try project.open()
        try project.migrator(database).migrate()
        try project.folder.write("migrations/2_late.sql", "CREATE TABLE late (x);")
        #expect {
            try project.migrator(database).migrate()
        } throws: { error in
            guard case .outOfOrder(let paths, let newest) = error as? MigrationError else { return false }
            return paths == [project.migrationsPath + "/2_late.sql"] && newest == 3
        }
        #expect(!(try project.tables(database).contains("late")))
        try project.migrator(database).migrate(Migrator.Options(allowsOutOfOrder: true))
        #expect(try project.versions(database) == [1, 2, 3])
    }

    @Test func allOrNothingUndoesTheWholeRun() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries, "2_wine.sql": wine, "3_bad.sql": "CREATE TABLE oops (;"])
        let database = try project.open()
        #expect {
            try project.migrator(database).migrate(Migrator.Options(isAllOrNothing: true))
        } throws: { error in
            (error as? MigrationError)?.diagnostic?.notes
                == ["all 3 migrations of this run (one transaction) rolled back; the database is still at version 0"]
        }
        #expect(try project.tables(database).isEmpty)
        #expect {
            try project.migrator(database).migrate()
        } throws: { _ in true }
        #expect(try project.versions(database) == [1, 2])
    }

    @Test func allOrNothingRefusesATransactionFalseMigration() throws {
        let project = try MigrationProject([
            "1_wineries.sql": wineries, "2_vacuum.sql": "-- migrate:up transaction:false\nVACUUM;\n",
        ])
        let database = try project.open()
        #expect {
            try project.migrator(database).migrate(Migrator.Options(isAllOrNothing: true))
        } throws: { error in
            guard case .nonTransactionalInAllOrNothing(let path) = error as? MigrationError else { return false }
            return path.hasSuffix("2_vacuum.sql")
        }
        #expect(try project.tables(database).isEmpty)
    }

    @Test func transactionFalseMigrationRunsInAutocommitWithItsOwnTransactions() throws {
        let project = try MigrationProject([
            "1_wineries.sql": wineries,
            "2_own.sql": "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE own (x);\nCOMMIT;\nVACUUM;\n",
        ])
        let database = try project.open()
        var statements: [String] = []
        try database.trace { statements.append($0) }
        try project.migrator(database).migrate()
        try database.trace(nil)
        #expect(try project.versions(database) == [1, 2])
        #expect(try project.tables(database).contains("own"))
        // Claimed (an unfinished row) inside the transaction its first statement opens (its deferred
        // BEGIN taken as BEGIN IMMEDIATE, so that the write lock is waited for first), before its
        // CREATE; recorded as applied after its last statement.
        let create = try #require(statements.firstIndex(of: "CREATE TABLE own (x);"))
        let vacuum = try #require(statements.firstIndex(of: "VACUUM;"))
        let claim = try #require(statements.lastIndex { $0.hasPrefix("INSERT INTO main.cellar_migrations") })
        let finish = try #require(statements.lastIndex { $0.contains("SET kind = 'applied'") })
        #expect(statements[claim - 1] == "BEGIN IMMEDIATE" && !statements.contains("BEGIN;"))
        #expect(claim < create && vacuum < finish)
        #expect(try database.scalar("SELECT kind FROM cellar_migrations WHERE version = 2") == .text("applied"))
    }

    @Test func skipsWhatAnotherProcessAppliedMeanwhile() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries, "2_wine.sql": wine])
        let database = try project.open()
        let other = try project.open()
        let migrator = try project.migrator(database)
        let otherMigrator = try project.migrator(other)
        migrator.observer = { event in
            if case .started(let migration) = event, migration.version == 2 {
                _ = try? otherMigrator.migrate()
            }
        }
        let outcomes = try migrator.migrate()
        #expect(outcomes.map(\.wasSkipped) == [false, true])
        #expect(try project.versions(database) == [1, 2])
    }

    @Test func migrateToStopsAtTheTarget() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries, "2_wine.sql": wine])
        let database = try project.open()
        try project.migrator(database).migrate(to: 1)
        #expect(try project.versions(database) == [1])
        #expect(throws: MigrationError.self) { try project.migrator(database).migrate(Migrator.Options(target: 9)) }
    }

    @Test func inMemoryMigrationsRunLikeFiles() throws {
        let database = try Database(path: ":memory:")
        let migrator = try Migrator(
            database: database,
            source: .files([.init(name: "0001_wineries.sql", text: wineries), .init(name: "0002_wine.sql", text: wine)]))
        try migrator.migrate()
        #expect(try migrator.currentVersion() == 2)
        #expect(try migrator.pending().isEmpty)
    }
}
