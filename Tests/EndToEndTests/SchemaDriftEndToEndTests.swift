import TestSupport
import Testing

/// `verify --schema` on the winery example, with the real binary and sqlite3 as the hand that drifts.
@Suite struct SchemaDriftEndToEndTests {
    @Test func theExampleHasNoDriftAfterSetupUntilSomeoneEditsItByHand() throws {
        let folder = TemporaryDirectory()
        try Shell.run(
            "/bin/cp", ["-R", "\(DumpEndToEndTests.repository)/migrations", "\(DumpEndToEndTests.repository)/seeds", folder.path])
        #expect(try Cellar.run(["setup"], in: folder.path).status == 0)
        let clean = try Cellar.run(["verify", "--schema"], in: folder.path)
        #expect(clean.status == 0, "\(clean)")
        try Shell.run("/usr/bin/sqlite3", [folder.file("cellar.sqlite"), "CREATE INDEX wine_by_rating ON wine (rating)"])
        let drifted = try Cellar.run(["verify", "--schema"], in: folder.path)
        #expect(drifted.status == 1)
        #expect(drifted.error.hasPrefix("drift: index wine_by_rating is in the database but no migration creates it\n"))
    }
}
