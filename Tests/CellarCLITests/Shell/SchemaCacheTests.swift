import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

@Suite struct SchemaCacheTests {
    let folder = TemporaryDirectory()

    private func open() throws -> Database {
        try Database(path: folder.file("cache.sqlite"))
    }

    @Test func theSchemaIsReadOnceAndAgainOnlyWhenSchemaVersionChanges() throws {
        let database = try open()
        try database.execute("CREATE TABLE wine (id INTEGER, vintage INTEGER)")
        let completer = TabCompleter(listDirectory: { _ in [] })
        for _ in 0..<5 {
            #expect(completer.candidates(in: database, line: "SELECT vin", cursor: 10) == ["vintage"])
        }
        #expect(completer.schemaLoadCount == 1)
        try database.execute("INSERT INTO wine VALUES (1, 2020)")
        _ = completer.candidates(in: database, line: "SELECT vin", cursor: 10)
        #expect(completer.schemaLoadCount == 1)
        try database.execute("CREATE TABLE vineyard (id INTEGER)")
        #expect(completer.candidates(in: database, line: "SELECT vin", cursor: 10) == ["vineyard", "vintage"])
        #expect(completer.schemaLoadCount == 2)
    }

    @Test func aChangeByAnotherConnectionIsSeen() throws {
        let database = try open()
        let other = try open()
        let completer = TabCompleter(listDirectory: { _ in [] })
        #expect(completer.candidates(in: database, line: "SELECT * FROM gr", cursor: 16).isEmpty)
        try other.execute("CREATE TABLE grape (name TEXT)")
        #expect(completer.candidates(in: database, line: "SELECT * FROM gr", cursor: 16) == ["grape"])
        #expect(completer.schemaLoadCount == 2)
    }

    @Test func anotherConnectionIsReadAfresh() throws {
        let first = try open()
        try first.execute("CREATE TABLE wine (id INTEGER)")
        let second = try Database(path: folder.file("other.sqlite"))
        try second.execute("CREATE TABLE cork (id INTEGER)")
        let completer = TabCompleter(listDirectory: { _ in [] })
        #expect(completer.candidates(in: first, line: "SELECT * FROM ", cursor: 14) == ["wine"])
        #expect(completer.candidates(in: second, line: "SELECT * FROM ", cursor: 14) == ["cork"])
    }

    @Test func aBrokenViewLeavesTheOtherTablesCompletable() throws {
        let database = try open()
        try database.execute(
            "CREATE TABLE wine (id INTEGER, vintage INTEGER); CREATE TABLE gone (x); CREATE VIEW v AS SELECT x FROM gone;"
                + "DROP TABLE gone")
        let snapshot = SchemaSnapshot.load(from: database)
        #expect(snapshot.columns(of: "wine") == ["id", "vintage"])
        #expect(snapshot.tableNames == ["v", "wine"])
    }

    @Test func thePrefixIndexIgnoresCaseAndKeepsEachNameOnce() {
        let index = PrefixIndex(["Name", "name", "nation", "id", "NAME", "id", "ñame"])
        #expect(index.names(startingWith: "na") == ["NAME", "Name", "name", "nation"])
        #expect(index.names(startingWith: "NAT") == ["nation"])
        #expect(index.names(startingWith: "z").isEmpty)
        #expect(index.names(startingWith: "Ñ") == ["ñame"])
        #expect(index.names(startingWith: "").count == 6)
    }
}
