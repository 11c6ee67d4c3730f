import CellarKit
import TestSupport
import Testing

/// Issue 15 L3: a ledger row with a negative version (written by hand) is shown with its sign in front.
@Suite struct NegativeVersionTests {
    @Test func aNegativeLedgerVersionIsShownSigned() throws {
        let project = try MigrationProject(["1_t.sql": "CREATE TABLE t (x);\n"])
        let database = try project.open()
        try project.migrator(database).migrate()
        try database.execute(
            "INSERT INTO cellar_migrations (version, name, checksum, applied_at, duration_ms) VALUES (-5, 'odd', 'x', 'y', 0)")
        let missing = try #require(try project.migrator(database).status().first { $0.state == .missing })
        #expect(missing.versionText == "-0005")
        try database.execute("UPDATE cellar_migrations SET version = -9223372036854775808 WHERE version = -5")
        #expect(try project.migrator(database).status().first { $0.state == .missing }?.versionText == "-9223372036854775808")
    }
}
