import CellarKit
import TestSupport
import Testing

/// The shell at a real terminal (tmux, 80×24): its banner names the file it opened and says when a
/// mistyped name opened a new, empty database; it fits the window (`.mode auto`, the long-result view
/// sized to the window's height, `N rows changed` after a write), and the same input piped prints what
/// sqlite3 prints.
@Suite struct FirstContactTerminalTests {
    @Test func bannerNamesTheFileAndSaysWhenItIsNewAndEmpty() throws {
        let folder = TemporaryDirectory()
        let terminal = try TerminalSession(["shell", "cellar.sqlit"], in: folder, columns: 80, rows: 24)
        let screen = try terminal.waitFor("cellar>")
        #expect(screen.contains("opened cellar.sqlit: a new, empty database (the file did not exist)"), "\(screen)")
        try terminal.type(".quit")
        try terminal.waitFor("[exit 0]")
    }

    @Test func bannerNamesAnExistingFile() throws {
        let folder = TemporaryDirectory()
        try Database(path: folder.file("wine.sqlite")).execute("CREATE TABLE wine (name TEXT)")
        let terminal = try TerminalSession(["shell", "wine.sqlite"], in: folder, columns: 80, rows: 24)
        let screen = try terminal.waitFor("cellar>")
        #expect(screen.contains("opened wine.sqlite\n"), "\(screen)")
        #expect(!screen.contains("new, empty"), "\(screen)")
    }

    /// 100 wines, the session's input and the database file.
    private func wineCellar() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try Database(path: folder.file("wine.sqlite")).execute(
            """
            CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT);
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100)
            INSERT INTO wine SELECT x, 'wine ' || x FROM c;
            """)
        return folder
    }

    private static let session = [
        "UPDATE wine SET name = upper(name) WHERE id <= 3;", "DELETE FROM wine WHERE id = 100;",
        "CREATE TABLE note (text TEXT);", "SELECT id, name FROM wine;",
    ]

    @Test func theDefaultsFitAnEightyByTwentyFourWindow() throws {
        let folder = try wineCellar()
        let terminal = try TerminalSession(["shell", "wine.sqlite"], in: folder, columns: 80, rows: 24)
        try terminal.waitFor("cellar>")
        try terminal.type(".mode")
        try terminal.waitFor("current output mode: auto")
        // Each line typed at its prompt, so that no type-ahead echo lands in the output.
        for (index, line) in Self.session.prefix(3).enumerated() {
            try terminal.type(line)
            try terminal.waitFor("cellar>", count: index + 3)
        }
        let changed = try terminal.screen()
        #expect(changed.contains("id <= 3;\n3 rows changed\ncellar> DELETE"), "\(changed)")
        // One row, and nothing after a CREATE TABLE (sqlite3_changes still says 1 there).
        #expect(changed.contains("id = 100;\n1 row changed\ncellar> CREATE TABLE note (text TEXT);\ncellar>"), "\(changed)")
        try terminal.type(Self.session[3])
        let screen = try terminal.waitFor("the last 8 are)")
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        // The whole result is on the screen, its header on the top line: 4 lines of frame, 17 rows, a
        // row of …, the summary and the prompt make 24.
        #expect(lines.count == 24, "\(screen)")
        #expect(lines.first == "┌────┬─────────┐", "\(screen)")
        #expect(lines[1] == "│ id │  name   │", "\(screen)")
        #expect(lines[3] == "│  1 │ WINE 1  │" && lines[12] == "│ …  │ …       │", "\(screen)")
        #expect(lines[20] == "│ 99 │ wine 99 │", "\(screen)")
        #expect(lines[22] == "(99 rows, 82 not shown: the first 9 and the last 8 are)", "\(screen)")
        #expect(lines[23] == "cellar>")
        try terminal.type(".maxrows")
        try terminal.waitFor("maxrows: auto (as many as fit the window)")
    }

    @Test func changesOffHidesTheCountAndChangesOnIsSqlite3s() throws {
        let folder = try wineCellar()
        let terminal = try TerminalSession(["shell", "wine.sqlite"], in: folder, columns: 80, rows: 24)
        try terminal.waitFor("cellar>")
        let lines = [
            ".changes off", "UPDATE wine SET name = 'x' WHERE id <= 2;", ".changes on",
            "UPDATE wine SET name = 'y' WHERE id <= 2;",
        ]
        for (index, line) in lines.enumerated() {
            try terminal.type(line)
            try terminal.waitFor("cellar>", count: index + 2)
        }
        let screen = try terminal.waitFor("changes: 2   total_changes: 4")
        #expect(!screen.contains("rows changed"), "\(screen)")
        #expect(screen.contains("id <= 2;\ncellar> .changes on"), "\(screen)")
    }

    /// The count is for statements typed: a `.read` file of INSERTs (a dump) prints no line for each.
    @Test func aReadFileDoesNotCountEachStatement() throws {
        let folder = try wineCellar()
        try folder.write("more.sql", "INSERT INTO wine (name) VALUES ('a');\nINSERT INTO wine (name) VALUES ('b');\n")
        let terminal = try TerminalSession(["shell", "wine.sqlite"], in: folder, columns: 80, rows: 24)
        try terminal.waitFor("cellar>")
        try terminal.type(".read more.sql")
        try terminal.waitFor("cellar>", count: 2)
        try terminal.type("DELETE FROM wine WHERE id > 100;")
        let screen = try terminal.waitFor("2 rows changed")
        #expect(screen.occurrences(of: "changed") == 1, "\(screen)")
    }

    @Test func aTooWideResultAsLinesFitsTheWindowToo() throws {
        let folder = try wineCellar()
        let terminal = try TerminalSession(["shell", "wine.sqlite"], in: folder, columns: 80, rows: 24)
        try terminal.waitFor("cellar>")
        try terminal.type("SELECT id, printf('%.90c', 'v') AS v FROM wine;")
        let screen = try terminal.waitFor("(100 rows,")
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 24, "\(screen)")
        #expect(screen.contains("   id = 1\n"), "\(screen)")
        #expect(screen.contains("   id = 100\n"), "\(screen)")
        #expect(!screen.contains("┌"), "\(screen)")
    }

    /// Piped, none of it: list mode, every row, no count, byte for byte what sqlite3 3.40 prints for
    /// the same input.
    @Test func theSameSessionPipedIsSqlite3sOutput() throws {
        let cellarFolder = try wineCellar()
        let sqliteFolder = try wineCellar()
        let input = Self.session.joined(separator: "\n") + "\n"
        let cellar = try Cellar.run(["shell", "wine.sqlite"], in: cellarFolder.path, input: input)
        let sqlite3 = try Shell.run("/usr/bin/sqlite3", [sqliteFolder.file("wine.sqlite")], input: Array(input.utf8))
        #expect(cellar.status == 0 && sqlite3.status == 0)
        #expect(cellar.output == sqlite3.output)
        #expect(cellar.output.hasPrefix("1|WINE 1\n") && cellar.output.hasSuffix("99|wine 99\n"))
        #expect(!cellar.output.contains("changed") && !cellar.error.contains("changed"), "\(cellar)")
    }
}
