import CellarKit
import Glibc
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

    /// `.log` against sqlite3's: SQLite's messages (an error, an automatic index, a constraint) on
    /// standard output, in a file (readable by its owner only), none after `off`; refused by `--safe`.
    /// The log is the process's, so this runs the binary rather than in this test process.
    @Test func logWritesSQLitesMessagesAsSqlite3() throws {
        let input =
            ".log stdout\nSELECT * FROM nope;\nCREATE TABLE t(x);\nINSERT INTO t VALUES(1),(1);\n"
            + "SELECT count(*) FROM t a, t b WHERE a.x=b.x;\nCREATE UNIQUE INDEX u ON t(x);\n.log off\nSELECT * FROM nope2;\n"
            + ".log LOGFILE\nSELECT nope3;\n.log\n.log a b\n"
        let reference = try Shell.run(
            "/usr/bin/sqlite3", [folder.file("s.db")], environment: ["HOME": folder.path],
            input: Array(input.replacing("LOGFILE", with: folder.file("s.log")).utf8))
        let run = try Cellar.run(
            ["shell", "c.db"], in: folder.path, input: input.replacing("LOGFILE", with: folder.file("c.log")),
            environment: ["HOME": folder.path], timeout: 60)
        #expect(run.output == reference.output, "\(run)")
        #expect(run.output.contains("(284) automatic index on t(x)"))
        #expect((run.status == 0) == (reference.status == 0))
        #expect(try FileBytes.read(folder.file("c.log")) == FileBytes.read(folder.file("s.log")))
        var status = stat()
        #expect(stat(folder.file("c.log"), &status) == 0 && status.st_mode & 0o777 == 0o600)
        let safe = try Cellar.run(
            ["shell", "--safe", "c.db"], in: folder.path, input: ".log \(folder.file("safe.log"))\nSELECT nope;\n", timeout: 60)
        #expect(safe.status == 1)
        #expect(safe.error.contains(".log is not allowed with --safe"), "\(safe)")
        #expect(access(folder.file("safe.log"), F_OK) != 0)
    }
}
