import CellarKit
import TestSupport
import Testing

/// Tab at a real terminal (tmux): the columns of every table before `FROM`, nothing inside quotes or
/// comments, and a schema change seen by the next Tab.
@Suite struct ShellCompletionTerminalTests {
    let folder = TemporaryDirectory()

    init() throws {
        let database = try Database(path: folder.file("wine.sqlite"))
        try database.execute(
            """
            CREATE TABLE winery (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region TEXT);
            CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT, producer_code TEXT);
            INSERT INTO winery VALUES (1, 'Chateau', 'Bordeaux');
            INSERT INTO wine VALUES (1, 'Red', 'P-7');
            """)
    }

    private func start() throws -> TerminalSession {
        let terminal = try TerminalSession(["shell", "wine.sqlite"], in: folder)
        try terminal.waitFor("cellar>")
        try terminal.type(".mode list")
        // Its prompt, not the typed line: keys sent before the shell reads again reach the terminal's
        // own line editing (where Tab is a character and Ctrl-U erases the line), not the shell's.
        try terminal.waitFor("cellar>", count: 2)
        return terminal
    }

    @Test func aColumnCompletesBeforeFrom() throws {
        let terminal = try start()
        try terminal.type("SELECT producer_", enter: false)
        try terminal.press("Tab")
        try terminal.waitFor("SELECT producer_code")
        try terminal.type("FROM wine;")
        try terminal.waitUntil("the column's value") { $0.contains("\nP-7\ncellar>") }
    }

    @Test func nothingCompletesInsideAStringOrAQuotedName() throws {
        let terminal = try start()
        try terminal.type("SELECT 'winer", enter: false)
        try terminal.press("Tab")
        try terminal.press("Tab")
        try terminal.type("' AS \"regi", enter: false)
        try terminal.press("Tab")
        try terminal.press("Tab")
        try terminal.type("\";")
        let screen = try terminal.waitUntil("the literal") { $0.contains("\nwiner\ncellar>") }
        #expect(screen.contains("SELECT 'winer' AS \"regi\";"))
        #expect(!screen.contains("winery"))
        #expect(!screen.contains("region"))
    }

    @Test func aTableCreatedInTheSessionCompletesAtTheNextTab() throws {
        let terminal = try start()
        try terminal.type("SELECT * FROM vineya", enter: false)
        try terminal.press("Tab")
        try terminal.press("C-u")
        try terminal.type("CREATE TABLE vineyard (acreage REAL);")
        try terminal.waitFor("cellar>", count: 3)
        try terminal.type("SELECT acre", enter: false)
        try terminal.press("Tab")
        try terminal.waitFor("SELECT acreage")
    }
}
