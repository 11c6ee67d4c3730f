import CellarKit
import Testing

/// The checks a `migrate` run makes before its first write share one read of the ledgers' rows of
/// `sqlite_schema` (``Migrator/sharingLedgerReads(_:)``), and a write of the run ends the sharing:
/// what it reads afterwards is the database as the run left it.
@Suite struct SharedLedgerReadsTests {
    static let wineries = "CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n"
    static let wine = "CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT);\n"

    @Test func aMigrationOfTheRunEndsTheSharing() throws {
        let project = try MigrationProject(["0001_wineries.sql": Self.wineries, "0002_wine.sql": Self.wine])
        let database = try project.open()
        let migrator = try project.migrator(database)
        let version = try migrator.sharingLedgerReads {
            // Read before the ledger exists: it is absent.
            #expect(try migrator.currentVersion() == 0)
            #expect(try migrator.pending().count == 2)
            try migrator.migrate()
            return try migrator.currentVersion()
        }
        #expect(version == 2)
        #expect(try project.versions(database) == [1, 2])
    }

    @Test func baselineEndsTheSharing() throws {
        let project = try MigrationProject(["0001_wineries.sql": Self.wineries, "0002_wine.sql": Self.wine])
        let database = try project.open()
        let migrator = try project.migrator(database)
        let pending = try migrator.sharingLedgerReads {
            #expect(try migrator.status().allSatisfy { $0.state == .pending })
            try migrator.baseline(through: 1)
            return try migrator.pending().map(\.version)
        }
        #expect(pending == [2])
    }

    /// Another process's ledger found by the first check refuses every later one of the run, from the
    /// shared read.
    @Test func anotherToolsLedgerIsRefusedByEveryCheck() throws {
        let project = try MigrationProject(["0001_wineries.sql": Self.wineries])
        let database = try project.open()
        try database.execute(
            "CREATE TABLE schema_migrations (version TEXT PRIMARY KEY); INSERT INTO schema_migrations VALUES ('1')")
        let migrator = try project.migrator(database)
        migrator.sharingLedgerReads {
            #expect(throws: MigrationError.self) { try migrator.pending() }
            #expect(throws: MigrationError.self) { try migrator.migrate() }
        }
        #expect(try project.tables(database) == ["schema_migrations"])
    }

    /// Outside the sharing every check reads afresh.
    @Test func withoutSharingAChangeBetweenChecksIsSeen() throws {
        let project = try MigrationProject(["0001_wineries.sql": Self.wineries])
        let database = try project.open()
        let migrator = try project.migrator(database)
        #expect(try migrator.pending().count == 1)
        try database.execute("CREATE TABLE schema_migrations (version TEXT PRIMARY KEY)")
        try database.execute("INSERT INTO schema_migrations VALUES ('1')")
        #expect(throws: MigrationError.self) { try migrator.pending() }
    }
}
