import CellarKit
import TestSupport
import Testing

/// `.pager` at a real terminal of 20 lines (tmux): a result taller than the screen goes to `less` or
/// to the command named, a short one does not, and nothing is paged until `.pager` says so.
@Suite struct ShellPagerTerminalTests {
    let folder = TemporaryDirectory()
    static let hundredRows = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100) SELECT x FROM c;"

    private func start(pager: String) throws -> TerminalSession {
        let terminal = try TerminalSession(
            ["shell", "pager.sqlite"], in: folder, environment: ["PAGER": pager], columns: 100, rows: 20)
        try terminal.waitFor("cellar>")
        try terminal.type(".mode list")
        try terminal.type(".maxrows all")
        return terminal
    }

    @Test func aTallResultWaitsInLessUntilQ() throws {
        let terminal = try start(pager: "less")
        try terminal.type(".pager on")
        try terminal.type(Self.hundredRows)
        let paged = try terminal.waitUntil("less showing the first rows") { $0.hasPrefix("1\n2\n3\n") }
        #expect(!paged.contains("cellar>"))
        #expect(!paged.contains("\n100"))
        try terminal.press("q")
        try terminal.waitFor("cellar>")
        try terminal.type("SELECT 'after';")
        try terminal.waitFor("after\ncellar>")
    }

    /// `.maxrows auto`, the default, leaves no row out of a paged result: the pager is there for the
    /// rows that do not fit the window. A fixed `.maxrows N` still applies.
    @Test func thePagerGetsEveryRowUnderMaxrowsAuto() throws {
        let terminal = try TerminalSession(
            ["shell", "pager.sqlite"], in: folder, environment: ["PAGER": "less"], columns: 100, rows: 20)
        try terminal.waitFor("cellar>")
        try terminal.type(".mode list")
        try terminal.type(".pager cat -n")
        try terminal.type(Self.hundredRows)
        let paged = try terminal.waitFor("    99  99\n   100  100\ncellar>")
        #expect(!paged.contains("not shown"), "\(paged)")
        try terminal.type(".maxrows 4")
        try terminal.type(Self.hundredRows)
        try terminal.waitFor(
            "1\n2\n99\n100\n(100 rows, 96 not shown: the first 2 and the last 2 are; .maxrows all shows every row)\ncellar>")
    }

    @Test func aCommandPagesTallResultsOnly() throws {
        let terminal = try start(pager: "less")
        try terminal.type(".pager cat -n")
        try terminal.type(".pager")
        try terminal.waitFor("pager: on (cat -n)")
        try terminal.type(Self.hundredRows)
        // `cat -n` writes "   100\t100"; the terminal shows the tab as blanks.
        try terminal.waitFor("    99  99\n   100  100\ncellar>")
        try terminal.type("SELECT 'short';")
        let screen = try terminal.waitFor("\nshort\ncellar>")
        #expect(!screen.contains("1  short"))
    }

    @Test func catAsPagerShowsEveryRowAndTheShellGoesOn() throws {
        let terminal = try start(pager: "cat")
        try terminal.type(".pager on")
        try terminal.type(Self.hundredRows)
        try terminal.waitFor("\n99\n100\ncellar>")
    }

    @Test func nothingIsPagedByDefault() throws {
        let terminal = try start(pager: "less")
        try terminal.type(".pager")
        try terminal.waitFor("pager: off")
        try terminal.type(Self.hundredRows)
        try terminal.waitFor("\n99\n100\ncellar>")
    }
}
