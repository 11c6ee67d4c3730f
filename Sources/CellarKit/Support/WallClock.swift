import Glibc

/// Time as the migrator records it: a monotonic clock for durations, UTC for the ledger.
package enum WallClock {
    /// Milliseconds on the monotonic clock, for measuring durations.
    package static func milliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }

    /// Waits `milliseconds` (for polling another process's progress).
    package static func sleep(milliseconds: Int) {
        usleep(useconds_t(max(milliseconds, 0) * 1000))
    }

    /// The current UTC time in ISO 8601, such as `2026-11-29T19:36:48Z`.
    package static func utcTimestamp() -> String {
        format(compact: false)
    }

    /// The UTC time `secondsLater` seconds from now as `YYYYMMDDHHMMSS`, for timestamped migration
    /// versions.
    package static func compactUTCTimestamp(secondsLater: Int = 0) -> String {
        format(compact: true, secondsLater: secondsLater)
    }

    private static func format(compact: Bool, secondsLater: Int = 0) -> String {
        var seconds = time(nil) + secondsLater
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let date = [Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday)]
        let clock = [Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)]
        let dateText = date.enumerated().map { pad($0.element, to: $0.offset == 0 ? 4 : 2) }
        let clockText = clock.map { pad($0, to: 2) }
        if compact { return (dateText + clockText).joined() }
        return dateText.joined(separator: "-") + "T" + clockText.joined(separator: ":") + "Z"
    }

    /// `value` in decimal, zero-padded on the left to `width` digits.
    package static func pad(_ value: Int, to width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
