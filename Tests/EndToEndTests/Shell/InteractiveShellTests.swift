import CellarKit
import Glibc
import TestSupport
import Testing

/// The real binary at a real (pseudo-)terminal, through tmux.
@Suite struct InteractiveShellTests {
    let folder = TemporaryDirectory()

    init() throws {
        let database = try Database(path: folder.file("wine.sqlite"))
        try database.execute(
            """
            CREATE TABLE winery (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region TEXT);
            CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT, rating INTEGER, winery_id INTEGER, label BLOB);
            INSERT INTO winery VALUES (1, 'Chateau', 'Bordeaux');
            INSERT INTO wine VALUES (1, 'Red', 4, 1, NULL);
            """)
    }

    private func start(_ extra: [String] = [], environment: [String: String] = [:]) throws -> TerminalSession {
        let session = try TerminalSession(["shell", "-d", "wine.sqlite"] + extra, in: folder, environment: environment)
        try session.waitFor("cellar>")
        return session
    }

    @Test func aStatementSpanningLinesRunsWhenComplete() throws {
        let terminal = try start()
        try terminal.type(".mode list")
        try terminal.type("SELECT name,")
        try terminal.waitFor("...>")
        try terminal.type("  rating")
        try terminal.type("FROM wine;")
        let screen = try terminal.waitFor("Red|4")
        #expect(screen.occurrences(of: "...>") == 2)
        try terminal.type("SELECT 1; SELECT 2;")
        try terminal.waitUntil("both results") { $0.contains("\n1\n2\ncellar>") }
    }

    @Test func tabCompletesATableAndAColumnAfterAnAlias() throws {
        let terminal = try start()
        try terminal.type(".mode list")
        try terminal.type("SELECT count(*) FROM winer", enter: false)
        try terminal.press("Tab")
        try terminal.waitFor("SELECT count(*) FROM winery")
        try terminal.type(";")
        try terminal.waitUntil("the count") { $0.contains("winery ;\n1\n") }
        try terminal.type("SELECT  FROM winery w WHERE w.id = 1;", enter: false)
        try terminal.press("C-a")
        for _ in 0..<7 { try terminal.press("Right") }
        try terminal.type("w.reg", enter: false)
        try terminal.press("Tab")
        try terminal.waitFor("SELECT w.region FROM winery w")
        try terminal.press("Enter")
        try terminal.waitUntil("the region") { $0.contains("\nBordeaux\n") }
    }

    @Test func modeHeadersAndTimerChangeWhatIsShown() throws {
        let terminal = try start()
        try terminal.type(".mode list")
        try terminal.type(".headers on")
        try terminal.type("SELECT name, rating FROM wine;")
        try terminal.waitUntil("a header row") { $0.contains("\nname|rating\nRed|4\n") }
        try terminal.type(".headers off")
        try terminal.type(".timer on")
        try terminal.type("SELECT 'timed';")
        try terminal.waitUntil("the run time") { $0.contains("\ntimed\nRun Time: real ") }
        try terminal.type(".mode nonsense")
        try terminal.waitFor("unknown mode 'nonsense'")
    }

    @Test func controlCInterruptsALongQueryAndTheShellGoesOn() throws {
        let terminal = try start()
        // The long query creates `running` once it is well under way.
        try terminal.type(
            "SELECT 'started'; WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) "
                + "SELECT count(CASE WHEN x = 1000 THEN writefile('running', '') END) FROM c;")
        try terminal.waitFor("│ started   │")
        try Poll.until("the long statement to say it runs", timeout: 15) { FileBytes.exists(folder.file("running")) }
        let pressed = ChildProcess.now()
        try terminal.press("C-c")
        try terminal.waitFor("interrupted")
        try terminal.waitFor("cellar>", count: 2)
        #expect(ChildProcess.now() - pressed < 5)
        try terminal.type("SELECT 42;")
        try terminal.waitUntil("the answer") { $0.contains("│ 42 │\n└────┘\ncellar>") }
        #expect(!(try terminal.screen()).contains("[exit"))
    }

    @Test func controlCAtThePromptDiscardsTheHalfTypedStatement() throws {
        let terminal = try start()
        try terminal.type(".mode list")
        try terminal.type("SELECT 'half',")
        try terminal.waitFor("...>")
        try terminal.type("  'typed'", enter: false)
        try terminal.press("C-c")
        try terminal.waitFor("^C")
        try terminal.waitFor("cellar>", count: 3)
        try terminal.type("SELECT 'fresh';")
        let screen = try terminal.waitUntil("a fresh statement") { $0.contains("\nfresh\ncellar>") }
        #expect(!screen.contains("half|"))
        #expect(!screen.contains("error"))
    }

    @Test func controlDExitsZeroAndTheHistoryFileKeepsEachStatementOnce() throws {
        let terminal = try start()
        try terminal.type("SELECT 1,")
        try terminal.waitFor("...>")
        try terminal.type("2;")
        try terminal.waitFor("cellar>", count: 2)
        try terminal.type("SELECT 3;")
        try terminal.waitFor("cellar>", count: 3)
        try terminal.type("SELECT 3;")
        try terminal.waitFor("cellar>", count: 4)
        try terminal.type(".tables")
        try terminal.waitFor("cellar>", count: 5)
        try terminal.press("C-d")
        try terminal.waitFor("[exit 0]")
        let history = folder.file("history")
        var status = stat()
        #expect(lstat(history, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(try FileBytes.readText(history) == "SELECT 1, 2;\nSELECT 3;\n.tables\n")
    }

    @Test func aKilledShellKeepsItsHistory() throws {
        let terminal = try start()
        try terminal.type("SELECT 'kept';")
        try terminal.waitFor("cellar>", count: 2)
        terminal.kill()
        #expect(try FileBytes.readText(folder.file("history")) == "SELECT 'kept';\n")
    }

    @Test func historyIsLoadedAndAnExistingFileIsTightenedTo0600() throws {
        let history = try folder.write("history", "SELECT 'from last time';\n")
        chmod(history, 0o644)
        let terminal = try start()
        try terminal.press("Up")
        try terminal.waitFor("cellar> SELECT 'from last time';")
        var status = stat()
        lstat(history, &status)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    @Test func aSymbolicLinkAsHistoryIsRefusedWithAWarning() throws {
        let target = try folder.write("elsewhere", "")
        symlink(target, folder.file("history"))
        let terminal = try start()
        try terminal.waitFor("is a symbolic link; history is not saved")
        try terminal.type("SELECT 1;")
        try terminal.waitFor("cellar>", count: 2)
        try terminal.press("C-d")
        try terminal.waitFor("[exit 0]")
        #expect(try FileBytes.readText(target).isEmpty)
    }

    @Test func quitWithAnOpenTransactionWarnsAndAsksAgain() throws {
        let terminal = try start()
        try terminal.type("BEGIN; DELETE FROM wine;")
        try terminal.waitFor("cellar*>")
        try terminal.type(".quit")
        try terminal.waitFor("a transaction is open")
        #expect(!(try terminal.screen()).contains("[exit"))
        try terminal.press("C-d")
        try terminal.waitFor("[exit 0]")
        #expect(try Database(path: folder.file("wine.sqlite")).scalar("SELECT count(*) FROM wine") == .integer(1))
    }

    /// Issue 15 M5: `.open` warns about an open transaction and keeps it, as `.quit` does.
    @Test func openWithAnOpenTransactionWarnsAndKeepsIt() throws {
        let terminal = try start()
        try terminal.type("BEGIN; DELETE FROM wine;")
        try terminal.waitFor("cellar*>")
        try terminal.type(".open other.sqlite")
        try terminal.waitFor("or .open again to roll it back")
        try terminal.type("COMMIT;")
        try terminal.waitFor("cellar>", count: 2)
        try terminal.press("C-d")
        try terminal.waitFor("[exit 0]")
        #expect(try Database(path: folder.file("wine.sqlite")).scalar("SELECT count(*) FROM wine") == .integer(0))
        #expect(!FileBytes.exists(folder.file("other.sqlite")))
    }

    /// At 160×60, 59 lines above the prompt: 6 of frame, header, `…` and summary leave 53 rows.
    @Test func aLongResultShowsTheRowsThatFitTheWindow() throws {
        let terminal = try start()
        try terminal.type("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 100000) SELECT x FROM c;")
        let screen = try terminal.waitFor("(100000 rows, 99947 not shown: the first 27 and the last 26 are)")
        #expect(screen.hasPrefix("┌────────┐\n│   x    │\n"), "\(screen)")
        #expect(try shownNumbers(screen) == (1...27).map { String($0) } + (99975...100000).map { String($0) })
    }

    @Test func maxrowsFortyShowsTheFirstAndLastTwentyRows() throws {
        let terminal = try start()
        try terminal.type(".maxrows 40")
        try terminal.type("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 100000) SELECT x FROM c;")
        let screen = try terminal.waitFor("(100000 rows, 99960 not shown: the first 20 and the last 20 are)")
        #expect(try shownNumbers(screen) == (1...20).map { String($0) } + (99981...100000).map { String($0) })
    }

    /// The numbers in a box's rows, after checking that a row of `…` is among them.
    private func shownNumbers(_ screen: String) throws -> [String] {
        let gridLines = screen.split(separator: "\n").filter { $0.hasPrefix("│") }
        let cells: [String] = gridLines.map { line in String(line.filter { $0.isNumber || $0 == "…" }) }
        #expect(cells.contains("…"))
        return cells.filter { $0.first?.isNumber == true }
    }

    @Test func pngLabelsShowTheirTypeAndSize() throws {
        let png =
            "89504E470D0A1A0A0000000D4948445200000002000000030806000000B9EADE810000001449444154789C63F8CFC0F01F84"
            + "410802A102FF019B7F0BF555942C210000000049454E44AE426082"
        try Database(path: folder.file("wine.sqlite")).execute("UPDATE wine SET label = X'\(png)'")
        let terminal = try start()
        try terminal.type("SELECT name, label FROM wine;")
        try terminal.waitFor("<PNG 2×3, 77 B>")
    }

    @Test func controlCStopsAReadFileAndTabCompletesItsPath() throws {
        try folder.write(
            "slow script.sql",
            "SELECT 'started';\nWITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) "
                + "SELECT count(CASE WHEN x = 1000 THEN writefile('running', '') END) FROM c;\nSELECT 'after';\n")
        let terminal = try start()
        try terminal.type(".read 'slow", enter: false)
        try terminal.press("Tab")
        try terminal.waitFor(".read 'slow script.sql'")
        try terminal.press("Enter")
        try terminal.waitFor("│ started   │")
        try Poll.until("the long statement to say it runs", timeout: 15) { FileBytes.exists(folder.file("running")) }
        try terminal.press("C-c")
        try terminal.waitFor("interrupted")
        try terminal.waitFor("cellar>", count: 2)
        try terminal.type("SELECT 'next';")
        let screen = try terminal.waitFor("│ next   │")
        #expect(!screen.contains("after"))
    }

    @Test func safeModeRefusesFileAccessEndToEnd() throws {
        let result = try Cellar.run(
            ["shell", "--safe", "-d", "wine.sqlite"], in: folder.path,
            input: "SELECT writefile('leak.txt', 'x');\n.output leak.txt\nSELECT 'still here';\n")
        #expect(result.status == 1)
        #expect(result.output == "still here\n")
        #expect(result.error.contains("<stdin>:1:8: error: not authorized to use function: writefile"))
        #expect(result.error.contains("<stdin>:2:1: error: .output is not allowed with --safe"))
        #expect(!FileBytes.exists(folder.file("leak.txt")))
    }

    @Test func pipedInputHasNoPromptsAndFailsWithTheLineNumber() throws {
        let result = try Cellar.run(
            ["shell", "-d", "wine.sqlite"], in: folder.path, input: "SELECT 'ok';\n\nSELECT nope;\n")
        #expect(result.status == 1)
        #expect(result.output == "ok\n")
        #expect(result.error.hasPrefix("<stdin>:3:8: error: no such column: nope"))
        #expect(!result.output.contains("cellar>"))
    }
}
