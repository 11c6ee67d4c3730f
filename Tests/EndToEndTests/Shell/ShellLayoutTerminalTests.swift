import CellarKit
import TestSupport
import Testing

/// `.mode auto` at real terminals of two widths (tmux): the same wide result is a box at 200 columns
/// and `name = value` lines at 80.
@Suite struct ShellLayoutTerminalTests {
    let folder = TemporaryDirectory()

    init() throws {
        let database = try Database(path: folder.file("wine.sqlite"))
        try database.execute(
            """
            CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT, note TEXT);
            INSERT INTO wine VALUES (1, 'Red', printf('%.110c', 'n'));
            """)
    }

    /// The note makes a box 1 + 5 + 6 + 113 = 125 columns wide.
    private func showWideRow(columns: Int) throws -> TerminalSession {
        let terminal = try TerminalSession(["shell", "wine.sqlite"], in: folder, columns: columns, rows: 40)
        try terminal.waitFor("cellar>")
        try terminal.type(".mode auto")
        try terminal.type(".mode")
        try terminal.waitFor("current output mode: auto")
        try terminal.type("SELECT id, name, note FROM wine;")
        return terminal
    }

    @Test func aResultThatFitsIsABoxAt200Columns() throws {
        let terminal = try showWideRow(columns: 200)
        let screen = try terminal.waitFor("└")
        #expect(screen.contains("│ id │ name │"))
        #expect(!screen.contains("name = Red"))
    }

    @Test func aResultTooWideIsLinesAt80Columns() throws {
        let terminal = try showWideRow(columns: 80)
        let screen = try terminal.waitFor("name = Red")
        #expect(screen.contains("   id = 1\n"))
        #expect(screen.contains("note = nnnn"))
        #expect(!screen.contains("┌"))
        try terminal.type("SELECT id, name FROM wine;")
        try terminal.waitFor("│  1 │ Red  │")
    }
}
