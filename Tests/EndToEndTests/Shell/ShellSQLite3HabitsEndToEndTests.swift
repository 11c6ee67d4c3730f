import CellarKit
import TestSupport
import Testing

/// sqlite3 habits of issue 25 that need the real process: `-interactive` reads through the line
/// editor from the real standard input, and `.exit CODE` is the process's exit status.
@Suite struct ShellSQLite3HabitsEndToEndTests {
    let folder = TemporaryDirectory()

    /// `-interactive` on piped input: the banner and the prompts, an error does not stop it even
    /// with `-bail` (as sqlite3's), and the last of `-batch` and `-interactive` wins.
    @Test func interactiveOnPipedInputPromptsAndKeepsGoing() throws {
        let environment = ["HOME": folder.path]
        let input = "SELECT nope;\nSELECT 2;\n"
        let interactive = try Cellar.run(
            ["shell", "-interactive", "-bail", "x.db"], in: folder.path, input: input, environment: environment, timeout: 60)
        #expect(interactive.output.hasPrefix("cellar "), "\(interactive)")
        #expect(interactive.output.contains("cellar> SELECT nope;\ncellar> SELECT 2;\n2\n"), "\(interactive)")
        #expect(interactive.error.contains("no such column: nope"))
        let batch = try Cellar.run(
            ["shell", "-interactive", "-batch", "-bail", "x.db"], in: folder.path, input: input, environment: environment,
            timeout: 60)
        #expect(batch.output == "", "\(batch)")
        #expect(batch.status == 1)
    }

    /// `.exit CODE` is the status of the process, from piped input and from a `.read` file.
    @Test func exitCodeIsTheProcessStatus() throws {
        try FileBytes.write(Array("SELECT 1;\n.exit 6\nSELECT 3;\n".utf8), to: folder.file("x.sql"))
        let piped = try Cellar.run(["shell", "x.db"], in: folder.path, input: ".read x.sql\nSELECT 2;\n", timeout: 60)
        #expect(piped.status == 6, "\(piped)")
        #expect(piped.output == "1\n")
        let argument = try Cellar.run(["shell", "x.db", ".exit 300"], in: folder.path, timeout: 60)
        #expect(argument.status == 44, "\(argument)")
    }
}
