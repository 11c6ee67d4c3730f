import Glibc

/// A pause at a named point of a remote migration, for fault tests in debug builds only: with
/// `CELLAR_DQLITE_PAUSE=POINT` and `CELLAR_DQLITE_PAUSE_FILE=PATH` set, cellar creates `PATH.reached`
/// on reaching POINT the first time, then waits (at most two minutes) until `PATH` is removed, so a
/// test can kill the leader at that exact moment. Points: `before:V` (before migration V's `BEGIN`),
/// `statement:V:N` (after its Nth statement ran, inside the transaction), `commit:V` (its `COMMIT` is
/// sent, the reply not yet read). Release builds compile it to nothing.
enum FaultPause {
    #if DEBUG
        // One process, one synchronous migrator: the flag is only touched from the thread running it.
        nonisolated(unsafe) private static var isSpent = false
    #endif

    /// Pauses when `point` is the configured one and no pause happened yet.
    static func reach(_ point: @autoclosure () -> String) {
        #if DEBUG
            guard !isSpent, let wanted = getenv("CELLAR_DQLITE_PAUSE"), let file = getenv("CELLAR_DQLITE_PAUSE_FILE"),
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
