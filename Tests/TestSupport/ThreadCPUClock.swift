import Glibc

/// The CPU time of the calling thread, for tests that check how work grows with the input: they
/// compare the costs of two sizes in a ratio, never against a limit. Other processes on a busy
/// machine do not add to it, as they add to the time on the wall.
public enum ThreadCPUClock {
    /// Seconds of CPU time this thread has used.
    public static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The least CPU time of `repetitions` runs of `body` on this thread (the least is the one least
    /// disturbed by caches and page faults).
    public static func cost(repetitions: Int = 3, _ body: () throws -> Void) rethrows -> Double {
        var least = Double.infinity
        for _ in 0..<repetitions {
            let start = seconds()
            try body()
            least = min(least, seconds() - start)
        }
        return least
    }
}
