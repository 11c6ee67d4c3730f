import CellarKit
import Glibc
import TestSupport
import Testing

/// Issue 27 L3: a signal in the last moments of `run`, once its script committed, must not end the
/// process with 130 and no word. A debug build pauses at each of those moments (`CELLAR_FAULT_PAUSE`),
/// so the signal lands exactly there: the committed script exits 0, with a note that the signal came
/// after the commit.
@Suite struct LateSignalTests {
    @Test(arguments: [("guarded:finished", SIGINT), ("guarded:finished", SIGTERM), ("exit", SIGINT), ("exit", SIGTERM)])
    func aSignalAfterRunCommittedIsNotedAndTheStatusStaysZero(point: String, signal: Int32) throws {
        let folder = TemporaryDirectory()
        try folder.write("s.sql", "CREATE TABLE done (x);\nINSERT INTO done VALUES (1);\n")
        let pause = try folder.write("pause", "")
        let child = try Cellar.start(
            ["run", "s.sql", "-d", "r.db"], in: folder.path,
            environment: ["CELLAR_FAULT_PAUSE": point, "CELLAR_FAULT_PAUSE_FILE": pause])
        try Poll.until("cellar to reach \(point)", timeout: 30) { FileBytes.exists(pause + ".reached") }
        child.send(signal)
        // The signal is taken by the watcher thread while the command's thread waits at the point.
        usleep(200_000)
        unlink(pause)
        let result = try child.wait(timeout: 30)
        let committed =
            try Database(path: folder.file("r.db")).scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'done'")
            == .integer(1)
        #expect(committed)
        #expect(result.status == 0, "\(point): \(result)")
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(
            result.error.contains("cellar: note: \(name) arrived after the work was committed; nothing was rolled back"),
            "\(point): \(result)")
    }
}
