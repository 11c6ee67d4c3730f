import CellarKit
import Glibc
import TestSupport
import Testing

/// `.import`, `dump` and `restore` on a terminal show a progress line on standard error after a
/// second, as `run` does (RunProgressSlowTests), and clear it at the end; piped or with `-q`, nothing.
@Suite struct LongWorkProgressSlowTests {
    /// An environment in which the command shows its progress line at its first update instead of
    /// after a second, and then waits, the line on screen, until `pause` is removed (the debug build's
    /// fault pause): work that a fast machine finishes within the second is still seen mid-way.
    private func heldAtFirstProgress(in folder: TemporaryDirectory) throws -> (environment: [String: String], pause: String) {
        try folder.write("progress.pause", "")
        let pause = folder.file("progress.pause")
        return (
            ["CELLAR_PROGRESS_AFTER_MS": "0", "CELLAR_FAULT_PAUSE": "progress:shown", "CELLAR_FAULT_PAUSE_FILE": pause], pause
        )
    }

    /// The first line of `screen` that looks like a progress line (`… of …, …/s` or `…, …/s`).
    private func progressLine(_ screen: String, prefix: String) -> Substring? {
        screen.split(separator: "\n").first { $0.hasPrefix(prefix) && $0.hasSuffix("/s") }
    }

    @Test func importShowsTheBytesReadOfTheFile() throws {
        let folder = TemporaryDirectory()
        let made = try Shell.run(
            "/usr/bin/sqlite3",
            [
                "-csv", ":memory:",
                "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1500000) "
                    + "SELECT i, 'wine number ' || i, i * 0.5 FROM c",
            ])
        try folder.write("wine.csv", "id,name,price\n" + made.output)
        let held = try heldAtFirstProgress(in: folder)
        let terminal = try TerminalSession(["shell", "cellar.sqlite"], in: folder, environment: held.environment)
        try terminal.waitFor("cellar>")
        try terminal.type(".import --csv wine.csv wine")
        let shown = try terminal.waitUntil(timeout: 120, "the .import progress line") {
            progressLine($0, prefix: ".import wine.csv: ") != nil
        }
        unlink(held.pause)
        let line = try #require(progressLine(shown, prefix: ".import wine.csv: "))
        #expect(line.contains("iB of ") && line.contains("iB, ") && line.hasSuffix("iB/s"), "\(line)")
        let finished = try terminal.waitFor("imported 1500000 rows into wine", timeout: 300)
        #expect(progressLine(finished, prefix: ".import wine.csv: ") == nil, "the line is cleared: \(finished)")
    }

    @Test func dumpIntoAFileShowsTheBytesWritten() throws {
        let folder = TemporaryDirectory()
        try Database(path: folder.file("big.sqlite")).execute(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1500000)
            INSERT INTO t SELECT i, 'row ' || i FROM c;
            """)
        let held = try heldAtFirstProgress(in: folder)
        let terminal = try TerminalSession(
            ["dump", "-d", "big.sqlite"], in: folder, environment: held.environment, standardOutput: "dump.sql")
        let shown = try terminal.waitUntil(timeout: 120, "the dump progress line") { progressLine($0, prefix: "dump: ") != nil }
        unlink(held.pause)
        let line = try #require(progressLine(shown, prefix: "dump: "))
        #expect(line.contains("iB, ") && line.hasSuffix("iB/s"), "\(line)")
        let finished = try terminal.waitFor("[exit 0]", timeout: 300)
        #expect(progressLine(finished, prefix: "dump: ") == nil, "the line is cleared: \(finished)")
        let dumped = try String(decoding: FileBytes.read(folder.file("dump.sql")), as: UTF8.self)
        #expect(dumped.hasSuffix("COMMIT;\n") && !dumped.contains("/s\r"), "the dump holds no progress text")
    }

    @Test func restoreShowsTheBytesCopiedOfTheBackup() throws {
        let folder = TemporaryDirectory()
        // 600 MB of pages, to outlast the first second.
        try Database(path: folder.file("backup.sqlite")).execute(
            """
            CREATE TABLE b (x);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 150000)
            INSERT INTO b SELECT zeroblob(4000) FROM c;
            """)
        let held = try heldAtFirstProgress(in: folder)
        let terminal = try TerminalSession(
            ["restore", "backup.sqlite", "-d", "live.sqlite"], in: folder, environment: held.environment)
        let shown = try terminal.waitUntil(timeout: 120, "the restore progress line") {
            progressLine($0, prefix: "restore backup.sqlite: ") != nil
        }
        unlink(held.pause)
        let line = try #require(progressLine(shown, prefix: "restore backup.sqlite: "))
        #expect(line.contains("iB of 5"), "\(line)")
        let finished = try terminal.waitFor("[exit 0]", timeout: 300)
        #expect(finished.contains("restored live.sqlite from backup.sqlite"), "\(finished)")
        #expect(progressLine(finished, prefix: "restore backup.sqlite: ") == nil, "the line is cleared: \(finished)")
    }

    /// Off a terminal, and with -q on one, standard error has no progress line.
    @Test func pipedOrQuietThereIsNoProgress() throws {
        let folder = TemporaryDirectory()
        try Database(path: folder.file("backup.sqlite")).execute(
            """
            CREATE TABLE b (x);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 150000)
            INSERT INTO b SELECT zeroblob(4000) FROM c;
            """)
        let piped = try Cellar.run(["restore", "backup.sqlite", "-d", "live.sqlite"], in: folder.path)
        #expect(piped.status == 0 && piped.error.isEmpty, "\(piped)")
        let dump = try Cellar.run(["dump", "-d", "live.sqlite"], in: folder.path)
        #expect(dump.status == 0 && dump.error.isEmpty)
        // Shown at the first update, not after a second, if it were shown at all.
        let terminal = try TerminalSession(
            ["-q", "restore", "backup.sqlite", "-d", "again.sqlite"], in: folder, environment: ["CELLAR_PROGRESS_AFTER_MS": "0"])
        // Watched while it runs: a line shown and cleared would otherwise leave no trace.
        var sawProgress = false
        try terminal.waitUntil(timeout: 300, "the quiet restore") { screen in
            if screen.contains("/s") { sawProgress = true }
            return screen.contains("[exit 0]")
        }
        #expect(!sawProgress)
    }
}
