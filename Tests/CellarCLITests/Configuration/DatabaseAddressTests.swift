import TestSupport
import Testing

@testable import CellarCLI

/// The one place an address becomes an engine, and what each engine answers before a connection exists.
@Suite struct DatabaseAddressTests {
    @Test(arguments: [
        ("dqlite://127.0.0.1:9001/app", true),
        ("DQLITE://a:1,b:2/app", true),
        ("dqlite://no-database-yet", true),
        ("app.sqlite", false),
        ("dqlite.sqlite", false),
        ("./dqlite://x", false),
        ("file:app.sqlite?mode=ro", false),
        (":memory:", false),
    ])
    func theSchemeAloneNamesTheEngine(text: String, isCluster: Bool) {
        let address = DatabaseAddress(text)
        #expect(address == (isCluster ? .cluster(text) : .file(text)))
        #expect(address.text == text)
        #expect(address.makesCopies == !isCluster)
        #expect(address.setsUpItsConnection == !isCluster)
    }

    @Test func aMissingFileIsOneThatOpeningWouldCreateAndAClusterHasNone() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("new.sqlite")
        #expect(DatabaseAddress(path).missingFile == path)
        #expect(DatabaseAddress(path).isMissing)
        #expect(DatabaseAddress(":memory:").missingFile == nil)
        #expect(!DatabaseAddress(":memory:").isMissing)
        #expect(!DatabaseAddress("file:" + path).isMissing)
        #expect(DatabaseAddress("dqlite://127.0.0.1:1/app").missingFile == nil)
        #expect(!DatabaseAddress("dqlite://127.0.0.1:1/app").isMissing)
        _ = try folder.write("new.sqlite", "")
        #expect(DatabaseAddress(path).missingFile == nil)
        #expect(!DatabaseAddress(path).isMissing)
    }

    @Test func aCommandIsRefusedOnlyWhereItsRowSaysSo() throws {
        let create = try #require(CommandRegistry.command(named: "create")).spec
        let status = try #require(CommandRegistry.command(named: "status")).spec
        let url = "dqlite://127.0.0.1:1/app"
        #expect(DatabaseAddress("app.sqlite").refusal(of: create) == nil)
        #expect(DatabaseAddress(url).refusal(of: status) == nil)
        #expect(DatabaseAddress(url).refusal(of: create) == ClusterSupport.filesOnly.refusal(of: "create", url: url))
        #expect(DatabaseAddress(url).refusal(of: create)?.hasPrefix("'create' works on database files") == true)
    }
}
