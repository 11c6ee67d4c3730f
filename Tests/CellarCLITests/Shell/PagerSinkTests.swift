import CellarKit
import Glibc
import TestSupport
import Testing

@testable import CellarCLI

/// The pager sink: a result that fits goes to the terminal, a taller one to the pager, and a pager that
/// quits early stops the result without SIGPIPE.
@Suite struct PagerSinkTests {
    let folder = TemporaryDirectory()

    private func sink(_ command: String, terminal: BufferSink, rows: Int = 5) -> PagerSink {
        PagerSink(terminal: terminal, command: command, screenRows: rows) { command, input in
            try ShellSession.spawnShell(command, input: input, output: nil)
        }
    }

    @Test func aResultThatFitsGoesToTheTerminalAtTheEnd() throws {
        let terminal = BufferSink()
        let pager = sink("cat > '\(folder.file("paged"))'", terminal: terminal)
        try pager.write("1\n2\n3\n4\n")
        try pager.flush()
        #expect(terminal.text.isEmpty)
        try pager.finish()
        #expect(terminal.text == "1\n2\n3\n4\n")
        #expect(!pager.isPaging)
        #expect(access(folder.file("paged"), F_OK) != 0)
    }

    @Test func aTallerResultGoesWholeToThePager() throws {
        let terminal = BufferSink()
        let pager = sink("cat > '\(folder.file("paged"))'", terminal: terminal)
        try pager.write("1\n2\n3\n4\n")
        try pager.write("5\n6\n")
        #expect(pager.isPaging)
        try pager.finish()
        #expect(terminal.text.isEmpty)
        #expect(try String(decoding: FileContents.read(folder.file("paged")), as: UTF8.self) == "1\n2\n3\n4\n5\n6\n")
    }

    @Test func aPagerThatCannotRunIsAnError() throws {
        let pager = sink("cellar-no-such-pager", terminal: BufferSink(), rows: 2)
        do { try pager.write("1\n2\n3\n") } catch is PagerSink.Closed {}
        #expect(throws: PagerSink.Unavailable.self) { try pager.finish() }
    }

    @Test func aPagerThatQuitsEarlyEndsTheResultQuietly() throws {
        let terminal = BufferSink()
        let pager = sink("head -n 1 > /dev/null", terminal: terminal, rows: 2)
        let chunk = String(repeating: "a row of the result\n", count: 3_000)
        var closed = false
        for _ in 0..<2_000 where !closed {
            do { try pager.write(chunk) } catch is PagerSink.Closed { closed = true }
        }
        #expect(closed)
        try pager.finish()
    }
}
