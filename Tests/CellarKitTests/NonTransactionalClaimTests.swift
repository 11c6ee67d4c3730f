import CellarKit
import TestSupport
import Testing

/// Issue 15 H2, in process: the claim a `transaction:false` migration writes before it runs.
@Suite struct NonTransactionalClaimTests {
    @Test func aFailureRemovesTheClaimSoTheMigrationIsPendingAgain() throws {
        let project = try MigrationProject([
            "1_own.sql": "-- migrate:up transaction:false\nCREATE TABLE IF NOT EXISTS own (x);\nSELECT no_such_column;\n"
        ])
        let database = try project.open()
        #expect(throws: MigrationError.self) { try project.migrator(database).migrate() }
        #expect(try database.scalar("SELECT count(*) FROM cellar_migrations") == .integer(0))
        #expect(try project.migrator(database).status().map(\.state) == [.pending])
        #expect(try project.tables(database).contains("own"))
    }

    @Test func anUnfinishedClaimIsWaitedForThenRefusedAndAcceptFinishesIt() throws {
        let project = try MigrationProject([
            "1_own.sql": "-- migrate:up transaction:false\nCREATE TABLE own (x);\n",
            "2_next.sql": "CREATE TABLE next (x);\n",
        ])
        let database = try Database(path: project.databasePath, options: .init(busyTimeout: 100))
        try project.migrator(database).migrate(to: 1)
        // What a process killed between its claim and its last statement leaves behind.
        try database.execute("UPDATE cellar_migrations SET kind = 'unfinished', duration_ms = 0 WHERE version = 1")
        let migrator = try project.migrator(database)
        #expect(try migrator.status().map(\.state) == [.unfinished, .pending])
        #expect(try migrator.currentVersion() == 0)
        #expect(try migrator.verify().count == 1)
        #expect {
            try migrator.migrate()
        } throws: { error in
            guard case .unfinished(let version, let name, _) = error as? MigrationError else { return false }
            return version == 1 && name == "own"
        }
        #expect(throws: MigrationError.self) { try migrator.rollback() }
        #expect(try project.tables(database).contains("next") == false)
        #expect(try migrator.accept(version: 1))
        try migrator.migrate()
        #expect(try project.versions(database) == [1, 2])
        #expect(try database.scalar("SELECT group_concat(kind) FROM cellar_migrations") == .text("applied,applied"))
    }
}
