import CellarKit
import TestSupport
import Testing

/// The shell's banner at a real terminal (tmux, 80×24) names the file it opened, and says when a
/// mistyped name opened a new, empty database.
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
}
