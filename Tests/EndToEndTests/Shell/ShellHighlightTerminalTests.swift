import CellarKit
import Glibc
import TestSupport
import Testing

/// Syntax highlighting of the line being typed, at a real terminal (tmux): colour codes on a colour
/// terminal, none with `NO_COLOR` or `--color never`, and in every case the statement that runs and
/// the history entry are exactly what was typed. A libedit build cannot colour the line: there the
/// colour terminal shows it plain.
@Suite struct ShellHighlightTerminalTests {
    let folder = TemporaryDirectory()
    static let statement = "SELECT 'it''s' AS s, 42 AS n /* note */ ;"
    static let escape = "\u{1B}["

    /// Whether the binary under test edits lines with libedit (its dynamic libraries say so).
    static var usesLibedit: Bool {
        let linked = try? Shell.run("/usr/bin/ldd", [Cellar.executablePath], timeout: 10)
        return linked?.output.contains("libedit") ?? false
    }

    private func start(_ extra: [String] = [], noColor: String = "") throws -> TerminalSession {
        let terminal = try TerminalSession(
            ["shell", "h.sqlite"] + extra, in: folder, environment: ["TERM": "xterm-256color", "NO_COLOR": noColor],
            columns: 80, rows: 30)
        try terminal.waitFor("cellar>")
        try terminal.type(".mode list")
        return terminal
    }

    /// The line typed at the prompt, as the pane shows it with its escape codes.
    private func typedLine(_ terminal: TerminalSession, containing text: String) throws -> String {
        try terminal.waitUntil("the typed line") { $0.contains(text) }
        let coloured = try terminal.screen(escapes: true)
        return coloured.split(separator: "\n").last { $0.contains("cellar>") }.map(String.init) ?? ""
    }

    private func expectRanAndRemembered(_ terminal: TerminalSession, statement: String) throws {
        try terminal.press("Enter")
        let screen = try terminal.waitFor("it's|42\ncellar>")
        #expect(screen.contains("cellar> " + statement + "\n"))
        let history = try String(decoding: FileContents.read(folder.file("history")), as: UTF8.self)
        #expect(history.split(separator: "\n").last.map(String.init) == statement)
    }

    @Test func aColourTerminalColoursTheLineAndRunsWhatWasTyped() throws {
        let terminal = try start()
        try terminal.type(Self.statement, enter: false)
        let line = try typedLine(terminal, containing: Self.statement)
        if Self.usesLibedit {
            #expect(!line.contains(Self.escape), "libedit draws the line itself: \(line)")
        } else {
            #expect(line.contains(Self.escape), "no colour codes in \(line)")
            for word in ["SELECT", "AS", "'it''s'", "42", "/* note */"] {
                #expect(line.contains("m" + word), "\(word) is not coloured in \(line)")
            }
        }
        try expectRanAndRemembered(terminal, statement: Self.statement)
    }

    @Test(arguments: [("1", [String]()), ("", ["--color", "never"])])
    func noColourWithNoColorOrColorNever(noColor: String, extra: [String]) throws {
        let terminal = try start(extra, noColor: noColor)
        try terminal.type(Self.statement, enter: false)
        let line = try typedLine(terminal, containing: Self.statement)
        #expect(!line.contains(Self.escape), "colour codes in \(line)")
        try expectRanAndRemembered(terminal, statement: Self.statement)
    }

    @Test func aLineWiderThanTheScreenEditedInItsMiddleKeepsItsText() throws {
        let terminal = try start()
        let tail = String(repeating: "x", count: 70)
        try terminal.type("SELECT 1 AS v, '\(tail)' AS w;", enter: false)
        // Back over `' AS w;`, the x's and `, '` to just after `v`, on the first row of the line.
        for _ in 0..<(tail.count + 10) { try terminal.press("Left") }
        try terminal.type("2", enter: false)
        let expected = "SELECT 1 AS v2, '\(tail)' AS w;"
        try terminal.waitUntil("the edited line") { $0.replacingNewlines().contains(expected) }
        try terminal.press("Enter")
        try terminal.waitFor("\n1|\(tail.prefix(40))")
        let history = try String(decoding: FileContents.read(folder.file("history")), as: UTF8.self)
        #expect(history.split(separator: "\n").last.map(String.init) == expected)
    }
}

extension String {
    /// The text with its line breaks taken out: a line the terminal wrapped, read as one.
    fileprivate func replacingNewlines() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined()
    }
}
