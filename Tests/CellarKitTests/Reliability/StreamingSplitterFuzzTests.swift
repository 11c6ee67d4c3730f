import CellarKit
import TestSupport
import Testing

/// The streaming script runner, fed in tiny chunks, must run exactly the statements SQLite's prepare
/// tail finds in the whole text, in the same order, and fail where that does.
@Suite struct StreamingSplitterFuzzTests {
    private static let statements = [
        "SELECT 1;", "SELECT 'a;b';", "SELECT \"x;\" FROM (SELECT 1 AS \"x;\");", "CREATE TABLE IF NOT EXISTS t(a);",
        "INSERT INTO t VALUES ('é;🍷');", "CREATE TRIGGER IF NOT EXISTS g AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END;",
        "SELECT CASE WHEN 1 THEN 'END;' END;", "/* c; */ SELECT 2;", "-- x;\nSELECT 3;", "SELECT x'00ff';",
        "SELECT [a;b] FROM (SELECT 1 AS [a;b]);",
    ]
    private static let separators = [" ", "\n", "\r\n", ";", "-- note\n", "/* n */", ""]
    private static let garbage = ["'", "\"", "/*", "--", "SELECT", "(", "x"]

    @Test func chunkedRunnerRunsWhatThePrepareTailFinds() throws {
        var generator = SeededGenerator(seed: 0x57AE)
        var multiStatementScripts = 0
        for _ in 0..<Soak.count(suite: 5_000, soak: 500_000) {
            let count = Int.random(in: 1...8, using: &generator)
            let script = (0..<count).map { _ in
                let piece = Int.random(in: 0..<10, using: &generator) == 0 ? Self.garbage : Self.statements
                return piece.randomElement(using: &generator)! + Self.separators.randomElement(using: &generator)!
            }.joined()
            let chunkSize = Int.random(in: 16...64, using: &generator)
            let expected = try tracedByCursor(script)
            let actual = try tracedByRunner(script, chunkSize: chunkSize)
            #expect(actual.statements == expected.statements, "script: \(script.debugDescription)")
            #expect(actual.failed == expected.failed, "script: \(script.debugDescription)")
            if expected.statements.count > 1 { multiStatementScripts += 1 }
        }
        #expect(multiStatementScripts > 500)
    }

    private func tracedByCursor(_ script: String) throws -> (statements: [String], failed: Bool) {
        let database = try Database(path: ":memory:")
        var statements: [String] = []
        try database.trace { statements.append($0) }
        do {
            try database.withStatements(in: script) { cursor in
                while let prepared = try cursor.next() { try cursor.run(prepared) }
            }
        } catch {
            return (statements, true)
        }
        return (statements, false)
    }

    private func tracedByRunner(_ script: String, chunkSize: Int) throws -> (statements: [String], failed: Bool) {
        let database = try Database(path: ":memory:")
        var statements: [String] = []
        try database.trace { statements.append($0) }
        let runner = ScriptRunner(database: database, options: .init(isTransactional: false, chunkSize: chunkSize))
        do {
            try runner.run(BufferSource(script), path: "fuzz.sql")
        } catch let diagnostic as Diagnostic where diagnostic.message.contains("empty") {
            return (statements, false)
        } catch {
            return (statements, true)
        }
        return (statements, false)
    }
}
