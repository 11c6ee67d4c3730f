import CellarDqlite
import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

/// Completion on a dqlite database: the schema is read through the engine seam, once, and again only
/// when the leader's `PRAGMA schema_version` changes (here, and after another client's change).
@Suite(.serialized, .enabled(if: DqliteCluster.unavailableReason == nil, "\(DqliteCluster.unavailableReason ?? "")"))
struct RemoteSchemaCacheSlowTests {
    @Test func theClustersSchemaIsReadOnceAndAgainOnlyWhenSchemaVersionChanges() throws {
        let cluster = try DqliteCluster()
        let url = try DqliteURL(cluster.url("app"))
        let connection = try RemoteConnection(RemoteDatabase(url, busyTimeout: 30_000))
        try connection.execute("CREATE TABLE wine (id INTEGER, vintage INTEGER)")
        let completer = TabCompleter(listDirectory: { _ in [] })
        for _ in 0..<3 {
            #expect(completer.candidates(in: connection, line: "SELECT vin", cursor: 10) == ["vintage"])
        }
        #expect(completer.schemaLoadCount == 1)
        try connection.execute("INSERT INTO wine VALUES (1, 2020)")
        _ = completer.candidates(in: connection, line: "SELECT vin", cursor: 10)
        #expect(completer.schemaLoadCount == 1)
        let other = try RemoteConnection(RemoteDatabase(url, busyTimeout: 30_000))
        try other.execute("CREATE TABLE vineyard (id INTEGER)")
        #expect(completer.candidates(in: connection, line: "SELECT vin", cursor: 10) == ["vineyard", "vintage"])
        #expect(completer.schemaLoadCount == 2)
    }
}
