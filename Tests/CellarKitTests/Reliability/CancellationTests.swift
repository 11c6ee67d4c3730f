import CellarKit
import TestSupport
import Testing

/// A stop requested between two statements (no statement running to interrupt): the work stops
/// before the next statement and its transaction is rolled back, not left open.
@Suite struct CancellationTests {
    /// A database whose `stop_now()` SQL function sets its cancellation flag, as a signal would.
    private func databaseStoppingOnRequest() throws -> Database {
        let database = try Database(path: ":memory:")
        let flag = CancellationFlag()
        database.cancellation = flag
        try database.createFunction("stop_now", argumentCount: 0) { _ in
            flag.cancel()
            return .null
        }
        return database
    }

    @Test func migrationStoppedBetweenStatementsIsRolledBack() throws {
        let database = try databaseStoppingOnRequest()
        let files: [MigrationSource.File] = [
            .init(name: "0001_first.sql", text: "CREATE TABLE first (x);"),
            .init(name: "0002_stopped.sql", text: "CREATE TABLE half (x);\nSELECT stop_now();\nCREATE TABLE never (x);"),
        ]
        let migrator = try Migrator(database: database, source: .files(files))
        let error = #expect(throws: MigrationError.self) { try migrator.migrate() }
        #expect(error?.description.contains("interrupted") == true)
        #expect(try database.isAutocommit)
        database.cancellation = nil
        #expect(
            try database.query("SELECT name FROM sqlite_schema WHERE name IN ('first', 'half', 'never')").map(\.values) == [
                [.text("first")]
            ])
        #expect(try migrator.currentVersion() == 1)
    }

    @Test func scriptStoppedBetweenStatementsIsRolledBack() throws {
        let database = try databaseStoppingOnRequest()
        let runner = ScriptRunner(database: database)
        let script = "CREATE TABLE half (x);\nSELECT stop_now();\nCREATE TABLE never (x);\n"
        let error = #expect(throws: Diagnostic.self) { try runner.run(BufferSource(script), path: "s.sql") }
        #expect(error?.description == "s.sql:3:1: error: interrupted")
        #expect(try database.isAutocommit)
        database.cancellation = nil
        #expect(try database.scalar("SELECT count(*) FROM sqlite_schema") == .integer(0))
    }
}
