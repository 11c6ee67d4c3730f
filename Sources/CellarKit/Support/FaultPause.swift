import Glibc

/// A pause at a named point, for fault tests in debug builds only: with `CELLAR_FAULT_PAUSE=POINT` and
/// `CELLAR_FAULT_PAUSE_FILE=PATH` set, cellar creates `PATH.reached` on reaching POINT the first time,
/// then waits (at most two minutes) until `PATH` is removed, so that a test can kill a dqlite leader or
/// send a signal at that exact moment. Release builds compile it to nothing.
///
/// Points: `before:V` (before remote migration V's `BEGIN`), `statement:V:N` (after its Nth statement
/// ran, inside the transaction), `commit:V` (its `COMMIT` is sent, the reply not yet read);
/// `guarded:finished` (a command's guarded work returned, its last `COMMIT` through, the signal
/// watcher still guarding it), `exit` (the command returned its exit status; the process exits next) and
/// `progress:shown` (a progress line was first written to the terminal).
package enum FaultPause {
    #if DEBUG
        // Each point is reached on one thread, and a test sets one point a run.
        nonisolated(unsafe) private static var isSpent = false
    #endif

    /// Pauses when `point` is the configured one and no pause happened yet.
    package static func reach(_ point: @autoclosure () -> String) {
        #if DEBUG
            guard !isSpent, let wanted = getenv("CELLAR_FAULT_PAUSE"), let file = getenv("CELLAR_FAULT_PAUSE_FILE"),
                String(cString: wanted) == point()
            else { return }
            isSpent = true
            let path = String(cString: file)
            let marker = open(path + ".reached", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            if marker >= 0 { close(marker) }
            for _ in 0..<12_000 where access(path, F_OK) == 0 {
                usleep(10_000)
            }
        #endif
    }
}
