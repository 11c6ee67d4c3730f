import Glibc

/// A point on the monotonic clock after which a wait gives up.
struct Deadline: Comparable, Sendable {
    /// Milliseconds on the monotonic clock.
    let milliseconds: Int64

    /// The deadline `milliseconds` from now.
    static func after(milliseconds delay: Int) -> Deadline {
        Deadline(milliseconds: now() + Int64(delay))
    }

    /// Milliseconds left (0 once passed), capped to fit `poll`'s timeout argument.
    var remainingMilliseconds: Int32 {
        Int32(clamping: max(0, milliseconds - Self.now()))
    }

    /// Whether the deadline has passed.
    var hasPassed: Bool { Self.now() >= milliseconds }

    /// The earlier of this deadline and `other`.
    func capped(by other: Deadline) -> Deadline { min(self, other) }

    static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// Milliseconds on the standard library's monotonic `ContinuousClock` (the clock CellarKit's
    /// durations read), counted from the first reading in the process.
    static func now() -> Int64 {
        let (seconds, attoseconds) = origin.duration(to: .now).components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The instant ``now()`` counts from.
    private static let origin = ContinuousClock.now

    /// Sleeps for `milliseconds`, or less when the deadline comes first.
    func sleep(milliseconds: Int) {
        let wait = min(Int64(milliseconds), max(0, self.milliseconds - Self.now()))
        guard wait > 0 else { return }
        var request = timespec(tv_sec: Int(wait / 1000), tv_nsec: Int(wait % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR {
            request = remaining
        }
    }
}
