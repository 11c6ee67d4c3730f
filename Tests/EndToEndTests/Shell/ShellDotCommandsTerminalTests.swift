import CellarKit
import TestSupport
import Testing

/// Dot-commands whose effect shows only at a real terminal (tmux): `.prompt` with the transaction
/// mark, and `.shell` handing the terminal to the command.
@Suite struct ShellDotCommandsTerminalTests {
    let folder = TemporaryDirectory()

    init() throws {
        try Database(path: folder.file("wine.sqlite")).execute("CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT)")
    }

    @Test func promptSetsBothPromptsAndMarksATransaction() throws {
        let terminal = try TerminalSession(["shell", "wine.sqlite"], in: folder)
        try terminal.waitFor("cellar>")
        try terminal.type(".prompt 'wine> ' '  ..> '")
        try terminal.waitFor("wine>")
        try terminal.type("SELECT")
        try terminal.waitFor("  ..>")
        try terminal.type("42;")
        try terminal.waitFor("wine>", count: 2)
        try terminal.type("BEGIN;")
        try terminal.waitFor("wine*>")
        try terminal.type("ROLLBACK;")
        let screen = try terminal.waitFor("wine>", count: 3)
        #expect(screen.contains("│ 42 │\n└"))
    }

    @Test func shellRunsTheCommandOnTheTerminalWithNoSignalBlocked() throws {
        let terminal = try TerminalSession(["shell", "wine.sqlite"], in: folder)
        try terminal.waitFor("cellar>")
        try terminal.type(".shell test -t 1 && echo on-a-terminal")
        try terminal.waitFor("cellar>", count: 2)
        // The shell blocks SIGINT for its Ctrl-C watcher; the command must not inherit that.
        try terminal.type(".system grep SigBlk /proc/self/status")
        let screen = try terminal.waitFor("cellar>", count: 3)
        #expect(screen.contains("\non-a-terminal\n"))
        // tmux shows the tab as blanks.
        let blocked = screen.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }
        #expect(blocked?.hasSuffix(" 0000000000000000") == true, "\(blocked ?? "")")
    }
}
