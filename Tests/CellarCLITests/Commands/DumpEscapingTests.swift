import CellarKit
import TestSupport
import Testing

/// `dump` and `.dump` on a terminal escape what comes from the database, names and `CREATE` text
/// included, as `schema` does; into a file or a pipe the bytes stay exact.
@Suite struct DumpEscapingTests {
    let folder = TemporaryDirectory()
    var databasePath: String { folder.file("hostile.db") }

    /// Names that clear the screen, set the window title or ring the bell when printed raw.
    private func makeHostileDatabase() throws {
        try Database(path: databasePath).execute(
            """
            CREATE TABLE "t\u{1B}[2J" (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT);
            INSERT INTO "t\u{1B}[2J" (body) VALUES ('x');
            CREATE INDEX "i\u{1B}]0;owned\u{07}" ON "t\u{1B}[2J" (body);
            CREATE VIEW "v\u{9B}31m" AS SELECT body FROM "t\u{1B}[2J";
            """)
    }

    private static let rawBytes: [[UInt8]] = [[0x1B, 0x5B, 0x32, 0x4A], [0x1B, 0x5D, 0x30], [0x07], [0xC2, 0x9B]]

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test(arguments: [["dump"], ["dump", "--schema-only"], ["dump", "t%"]])
    func dumpOnATerminalEscapesNames(arguments: [String]) throws {
        try makeHostileDatabase()
        let run = InProcessRun(arguments + ["-d", databasePath], input: [], isOutputTerminal: true)
        #expect(run.status == 0, "\(run.error)")
        for raw in Self.rawBytes { #expect(!contains(run.outputBytes, raw), "raw \(raw) on the terminal") }
        #expect(run.output.contains("CREATE TABLE IF NOT EXISTS \"t\\x1b[2J\" ("))
    }

    @Test func dotDumpOnATerminalEscapesNames() throws {
        try makeHostileDatabase()
        let run = InProcessRun(["shell", "-d", databasePath], input: Array(".dump\n".utf8), isOutputTerminal: true)
        #expect(run.status == 0, "\(run.error)")
        for raw in Self.rawBytes { #expect(!contains(run.outputBytes, raw), "raw \(raw) on the terminal") }
        #expect(run.output.contains("CREATE INDEX \"i\\x1b]0;owned\\x07\" ON"))
    }

    /// Piped, the dump is SQL that rebuilds the same names: sqlite3 reads it back.
    @Test func dumpIntoAPipeKeepsTheExactBytes() throws {
        try makeHostileDatabase()
        let run = InProcessRun(["dump", "-d", databasePath], input: [])
        #expect(run.status == 0, "\(run.error)")
        for raw in Self.rawBytes { #expect(contains(run.outputBytes, raw), "\(raw) missing from the dump") }
        let copy = folder.file("copy.db")
        let rebuilt = try Shell.run("/usr/bin/sqlite3", [copy], input: run.outputBytes)
        #expect(rebuilt.status == 0)
        let names = try Database(path: copy).query("SELECT name FROM sqlite_schema ORDER BY name").map { $0[0] }
        #expect(names == [.text("i\u{1B}]0;owned\u{07}"), .text("sqlite_sequence"), .text("t\u{1B}[2J"), .text("v\u{9B}31m")])
    }
}
