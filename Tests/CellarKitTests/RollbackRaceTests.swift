import CellarKit
import TestSupport
import Testing

/// Issue 15 H1: `rollback` racing `migrate` must choose what to undo inside its write transaction,
/// from the ledger as it is then.
@Suite struct RollbackRaceTests {
    private static func table(_ name: String) -> String {
        "-- migrate:up\nCREATE TABLE \(name) (x);\n-- migrate:down\nDROP TABLE \(name);\n"
    }

    @Test(arguments: [RollbackTarget.steps(1), .version(1)])
    func aMigrationAppliedJustBeforeTheLockIsTheOneUndoneFirst(target: RollbackTarget) throws {
        let project = try MigrationProject([
            "0001_a.sql": Self.table("a"), "0002_b.sql": Self.table("b"), "0003_c.sql": Self.table("c"),
        ])
        let database = try project.open()
        try project.migrator(database).migrate(to: 2)
        let racer = try project.open()
        var raced = false
        // The other deploy commits migration 3 at the last moment before rollback takes the write lock.
        try database.trace { sql in
            guard !raced, sql.hasPrefix("BEGIN IMMEDIATE") else { return }
            raced = true
            _ = try? project.migrator(racer).migrate()
        }
        try project.migrator(database).rollback(target)
        try database.trace(nil)
        #expect(raced)
        let tables = try project.tables(database).filter { $0.count == 1 }
        switch target {
        case .steps:
            #expect(try project.versions(database) == [1, 2])
            #expect(tables == ["a", "b"])
        case .version:
            #expect(try project.versions(database) == [1])
            #expect(tables == ["a"])
        }
    }

    @Test func aMigrationRolledBackMeanwhileIsNotUndoneTwice() throws {
        let project = try MigrationProject(["0001_a.sql": Self.table("a"), "0002_b.sql": Self.table("b")])
        let database = try project.open()
        try project.migrator(database).migrate()
        let racer = try project.open()
        var raced = false
        try database.trace { sql in
            guard !raced, sql.hasPrefix("BEGIN IMMEDIATE") else { return }
            raced = true
            _ = try? project.migrator(racer).rollback()
        }
        let outcomes = try project.migrator(database).rollback()
        try database.trace(nil)
        #expect(raced)
        #expect(outcomes.filter { !$0.wasSkipped }.map(\.migration.version) == [1])
        #expect(try project.versions(database).isEmpty)
        #expect(try project.tables(database).filter { $0.count == 1 }.isEmpty)
    }
}
