import CellarKit
import Foundation
import TestSupport
import Testing

/// A replay builds the schema the migrations create in an empty in-memory database: it checks the
/// schema, not data it does not have, words every failure as its own, and writes nothing outside.
@Suite struct SchemaReplayTests {
    private static let wineries = """
        -- migrate:up
        CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE wine (id INTEGER PRIMARY KEY, winery_id INTEGER NOT NULL REFERENCES wineries (id));
        -- migrate:down
        DROP TABLE wine;
        DROP TABLE wineries;
        """
    /// Refers to a winery that seeds put there: the replay has no seed rows.
    private static let houseWine =
        "INSERT INTO wine (id, winery_id) VALUES (1, 1);\nCREATE INDEX wine_winery ON wine (winery_id);\n"

    private func migrations(_ files: [(String, String)]) throws -> [Migration] {
        try files.map { name, text in try MigrationParser.parse(Array(text.utf8), fileName: name, path: "m/\(name)") }
    }

    private func failure(_ body: () throws -> Void) -> Diagnostic? {
        do {
            try body()
            return nil
        } catch let error as MigrationError {
            return error.diagnostic
        } catch {
            Issue.record("not a MigrationError: \(error)")
            return nil
        }
    }

    @Test func rowsReferringToSeedRowsReplay() throws {
        let replay = SchemaReplay(
            migrations: try migrations([("0001_wineries.sql", Self.wineries), ("0002_house_wine.sql", Self.houseWine)]))
        let database = try replay.replay()
        #expect(try database.scalar("SELECT count(*) FROM wine") == .integer(1))
        #expect(try replay.schema().contains("CREATE INDEX wine_winery ON wine (winery_id);"))
        #expect(try database.scalar("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'cellar%'") == .integer(0))
    }

    @Test func replayStopsAtTheVersionAsked() throws {
        let replay = SchemaReplay(
            migrations: try migrations([("0002_house_wine.sql", Self.houseWine), ("0001_wineries.sql", Self.wineries)]))
        let schema = try replay.schema(through: 1)
        #expect(schema.contains("CREATE TABLE wine "))
        #expect(!schema.contains("wine_winery"))
        #expect(throws: MigrationError.self) { try replay.replay(through: 7) }
    }

    @Test func aFailureIsTheReplaysAndLocated() throws {
        let replay = SchemaReplay(
            migrations: try migrations([
                ("0001_wineries.sql", Self.wineries), ("0002_broken.sql", "SELECT 1;\nCREATE INDEX i ON nowhere (x);\n"),
            ]))
        let found = failure { _ = try replay.replay() }
        #expect(found?.path == "m/0002_broken.sql")
        #expect(found?.location?.line == 2)
        #expect(found?.message == "replaying migration 0002 failed: no such table: main.nowhere")
        #expect(found?.notes == ["the replay runs the migrations into an empty in-memory database; no database was changed"])
    }

    @Test func aDownSectionRunsOnAReplayDatabase() throws {
        let replay = SchemaReplay(migrations: try migrations([("0001_wineries.sql", Self.wineries)]))
        let database = try replay.replay()
        try replay.run(replay.migrations[0], isDown: true, on: database)
        #expect(try database.schemaSQL().isEmpty)
        try replay.run(replay.migrations[0], on: database)
        let again = failure { try replay.run(replay.migrations[0], on: database) }
        #expect(again?.message == "replaying migration 0001 failed: table wineries already exists")
    }

    @Test(arguments: [
        ("ATTACH 'OUT' AS o;\nCREATE TABLE o.t (x);\n", "ATTACH or VACUUM INTO is not allowed in a replay"),
        (
            "-- migrate:up transaction:false\nATTACH 'OUT' || '' AS o;\nCREATE TABLE o.t (x);\n",
            "ATTACH or VACUUM INTO is not allowed in a replay"
        ),
        (
            "-- migrate:up transaction:false\nCREATE TABLE t (x);\nVACUUM INTO 'OUT';\n",
            "ATTACH or VACUUM INTO is not allowed in a replay"
        ),
        ("CREATE TABLE t (x);\nSELECT writefile('OUT', 'data');\n", "the function writefile is not allowed in a replay"),
    ])
    func nothingOutsideTheReplayIsWritten(migration: String, message: String) throws {
        let folder = TemporaryDirectory()
        let outside = folder.file("outside.db")
        var options = Database.Options()
        options.registersFileFunctions = true
        let replay = SchemaReplay(
            migrations: try migrations([("0001_out.sql", migration.replacing("OUT", with: outside))]), options: options)
        let found = failure { _ = try replay.replay() }
        #expect(found?.message.hasPrefix("replaying migration 0001 failed: \(message)") == true, "\(String(describing: found))")
        #expect(!FileManager.default.fileExists(atPath: outside))
    }

    @Test func aMemoryAttachAndAPlainVacuumReplay() throws {
        let replay = SchemaReplay(
            migrations: try migrations([
                ("0001_a.sql", "ATTACH ':memory:' AS scratch;\nCREATE TABLE scratch.t (x);\nCREATE TABLE kept (x);\n"),
                ("0002_b.sql", "-- migrate:up transaction:false\nDETACH scratch;\nVACUUM;\n"),
            ]))
        #expect(try replay.schema() == "CREATE TABLE kept (x);\n")
    }
}
