import CellarKit
import TestSupport
import Testing

/// Random and mutated SQL through the statement cursor: no crash, no hang, and statements that tile the
/// script exactly as SQLite's prepare tail does.
@Suite struct SplitterFuzzTests {
    private static let fragments = [
        "SELECT 1", ";", " ", "\n", "'a;b'", "\"q;\"", "-- c;\n", "/* ; */", "CREATE TABLE t(a)", "INSERT INTO t VALUES (1)",
        "CREATE TRIGGER g AFTER INSERT ON t BEGIN SELECT 1; END", "BEGIN", "END", "'", "\"", "/*", "--", "é", "🍷", "\u{0}",
        "x'00'",
        "[a;b]", "`c;d`", "CASE WHEN 1 THEN 2 END", "SELECT", "FROM", "(", ")",
    ]

    @Test func randomScriptsSplitConsistently() throws {
        var generator = SeededGenerator(seed: 0xCE11A4)
        let database = try Database(path: ":memory:")
        for _ in 0..<Soak.count(suite: 20_000, soak: 1_000_000) {
            let count = Int.random(in: 1...12, using: &generator)
            let script = (0..<count).map { _ in Self.fragments.randomElement(using: &generator)! }.joined()
            try checkSplit(script, on: database)
        }
    }

    @Test func mutatedBytesNeverCrashTheCursor() throws {
        var generator = SeededGenerator(seed: 0xF022)
        let database = try Database(path: ":memory:")
        let base = Array("CREATE TABLE w(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO w VALUES (1, 'a;b'); -- end\n".utf8)
        for _ in 0..<Soak.count(suite: 20_000, soak: 1_000_000) {
            var bytes = base
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            try checkSplit(String(decoding: bytes, as: UTF8.self), on: database)
        }
    }

    /// Statements come out in order, never overlap, start after only whitespace, comments and `;`, and
    /// each one's text is exactly what SQLite prepared.
    private func checkSplit(_ script: String, on database: Database) throws {
        try database.withStatements(in: script) { cursor in checkSplit(script, cursor: &cursor) }
    }

    private func checkSplit(_ script: String, cursor: inout StatementCursor<Database>) {
        var previousEnd = 0
        while true {
            let prepared: StatementCursor<Database>.Prepared?
            do {
                prepared = try cursor.next()
            } catch let error as SQLiteError {
                #expect((error.offset ?? -1) >= previousEnd && (error.offset ?? -1) <= script.utf8.count, "\(script)")
                return
            } catch {
                Issue.record(error)
                return
            }
            guard let prepared else { break }
            #expect(prepared.startOffset >= previousEnd && prepared.endOffset > prepared.startOffset, "\(script)")
            #expect(prepared.statement.sql.hasSuffix(cursor.text(of: prepared)), "\(script)")
            previousEnd = prepared.endOffset
        }
        #expect(cursor.currentOffset <= script.utf8.count)
    }
}
