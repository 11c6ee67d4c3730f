import CellarKit
import Testing

/// Reading `checkpoint.sql`: the header cellar reads, located errors, and what runs.
@Suite struct CheckpointTests {
    private let first = Checkpoint.Entry(version: 1, versionText: "0001", name: "a", checksum: String(repeating: "a", count: 64))
    private let second = Checkpoint.Entry(
        version: 2, versionText: "0002", name: "b-2", checksum: String(repeating: "0", count: 64))

    private func parse(_ text: String) throws(MigrationError) -> Checkpoint {
        try Checkpoint.parse(Array(text.utf8), path: "migrations/checkpoint.sql")
    }

    private func failure(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "parsed"
        } catch {
            return error.diagnostic?.description ?? error.description
        }
    }

    @Test func whatRenderWritesReadsBackWithItsBodyLocatedInTheFile() throws {
        let text = Checkpoint.render(entries: [first, second], sql: "CREATE TABLE t (x);\nINSERT INTO t VALUES(1);\n")
        let checkpoint = try parse(text)
        #expect(checkpoint.version == 2)
        #expect(checkpoint.entries == [first, second])
        #expect(checkpoint.coverage == "0001…0002")
        #expect(checkpoint.covers(1) && checkpoint.covers(2) && !checkpoint.covers(3))
        #expect(checkpoint.body.isCheckpoint && checkpoint.body.identifier == "checkpoint.sql (0001…0002)")
        #expect(checkpoint.body.up.sql == "CREATE TABLE t (x);\nINSERT INTO t VALUES(1);\n")
        let offset = text.utf8.count - checkpoint.body.up.sql.utf8.count
        #expect(checkpoint.body.up.startOffset == offset)
        #expect(checkpoint.body.up.isTransactional && checkpoint.body.down == nil)
    }

    @Test func migrationsThatLeaveNothingSquashIntoAHeaderAlone() throws {
        let checkpoint = try parse(Checkpoint.render(entries: [first], sql: ""))
        #expect(checkpoint.body.isEmpty)
        #expect(checkpoint.coverage == "0001")
    }

    @Test(arguments: [
        (
            "CREATE TABLE t (x);\n",
            "migrations/checkpoint.sql:1:1: error: not a checkpoint: no '-- cellar:checkpoint VERSION' line"
        ),
        ("-- cellar:checkpoint two\n", "migrations/checkpoint.sql:1:1: error: '-- cellar:checkpoint' names no version ('two'"),
        (
            "-- cellar:checkpoint 2\n-- cellar:checkpoint 2\n",
            "migrations/checkpoint.sql:2:1: error: a second '-- cellar:checkpoint' line"
        ),
        (
            "-- note\n-- cellar:checkpoint 2\n-- cellar:ledger 0001 a abc\n",
            "migrations/checkpoint.sql:3:1: error: a '-- cellar:ledger' line is 'VERSION NAME CHECKSUM'"
        ),
        (
            "-- cellar:checkpoint 2\n-- cellar:ledger 0002 b \(String(repeating: "a", count: 64))\n"
                + "-- cellar:ledger 0001 a \(String(repeating: "a", count: 64))\n",
            "migrations/checkpoint.sql:3:1: error: ledger row 0001 is not above the one before it (0002)"
        ),
        (
            "-- cellar:checkpoint 3\n-- cellar:ledger 0001 a \(String(repeating: "a", count: 64))\nSELECT 1;\n",
            "migrations/checkpoint.sql:1:1: error: the checkpoint's ledger rows must end with its version 3"
        ),
        (
            "-- cellar:checkpoint 1\n-- cellar:ledger 0001 a \(String(repeating: "A", count: 64))\n",
            "migrations/checkpoint.sql:2:1: error: a '-- cellar:ledger' line is 'VERSION NAME CHECKSUM'"
        ),
    ])
    func aHeaderThatDoesNotReadIsALocatedError(text: String, message: String) {
        #expect(failure(text).hasPrefix(message), "\(failure(text))")
    }

    @Test func theLoaderKeepsTheCheckpointOutOfTheMigrations() throws {
        let text = Checkpoint.render(entries: [first], sql: "CREATE TABLE t (x);\n")
        let source = MigrationSource.files([
            .init(name: "checkpoint.sql", text: text), .init(name: "0002_more.sql", text: "CREATE TABLE u (y);\n"),
        ])
        #expect(try source.load().map(\.version) == [2])
        #expect(try source.loadCheckpoint()?.version == 1)
        let broken = MigrationSource.files([.init(name: "checkpoint.sql", text: "SELECT 1;\n")])
        #expect(throws: MigrationError.self) { try broken.load() }
    }
}
