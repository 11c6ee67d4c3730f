import CellarKit
import TestSupport
import Testing

/// sqlite3 typing habits at a real terminal (tmux): `cellar shell FILE`, the start-up file, prefixes,
/// comment lines, the transaction prompt and errors placed within the statement typed.
@Suite struct ShellTypingTerminalTests {
    let folder = TemporaryDirectory()

    init() throws {
        let database = try Database(path: folder.file("wine.sqlite"))
        try database.execute("CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO wine VALUES (1, 'Red');")
    }

    @Test func theFileArgumentTheStartupFileAndAPrefix() throws {
        try folder.write(".cellarrc", ".mode list\n")
        let terminal = try TerminalSession(["shell", "wine.sqlite"], in: folder)
        try terminal.waitFor("cellar>")
        try terminal.type(".head on")
        try terminal.type("SELECT name FROM wine;")
        try terminal.waitUntil("the result with its header") { $0.contains("\nname\nRed\ncellar>") }
    }

    @Test func aCommentLineKeepsThePromptAndATransactionShowsInIt() throws {
        let terminal = try TerminalSession(["shell", "wine.sqlite"], in: folder)
        try terminal.waitFor("cellar>")
        try terminal.type("/* a note */ -- and more")
        try terminal.waitFor("cellar>", count: 2)
        try terminal.type("BEGIN;")
        try terminal.waitFor("cellar*>")
        try terminal.type("ROLLBACK;")
        let screen = try terminal.waitFor("cellar>", count: 3)
        #expect(!screen.contains("...>"))
        #expect(screen.occurrences(of: "cellar*>") == 1)
    }

    @Test func anErrorIsPlacedWithinTheStatementTyped() throws {
        let terminal = try TerminalSession(["shell", "wine.sqlite"], in: folder)
        try terminal.waitFor("cellar>")
        for _ in 0..<3 { try terminal.type("SELECT 1;") }
        try terminal.type("SELECT")
        try terminal.type("  nope FROM wine;")
        try terminal.waitFor("<stdin>:2:3: error: no such column: nope")
    }
}
