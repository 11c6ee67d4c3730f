import Glibc

/// Time as the migrator records it: a monotonic clock for durations, UTC for the ledger.
package enum WallClock {
    /// Milliseconds on the monotonic clock (the standard library's `ContinuousClock`, which the dqlite
    /// client's deadlines read too), counted from the first reading in the process: for durations and
    /// deadlines, never for the time of day.
    package static func milliseconds() -> Double {
        let (seconds, attoseconds) = origin.duration(to: .now).components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// The instant ``milliseconds()`` counts from.
    private static let origin = ContinuousClock.now

    /// Waits `milliseconds` (for polling another process's progress).
    package static func sleep(milliseconds: Int) {
        usleep(useconds_t(max(milliseconds, 0) * 1000))
    }

    /// The current UTC time in ISO 8601, such as `2026-11-29T19:36:48Z`.
    package static func utcTimestamp() -> String {
        format(compact: false, at: time(nil))
    }

    /// The UTC time `seconds` (since the epoch) in ISO 8601, as ``utcTimestamp()`` writes it.
    package static func utcTimestamp(at seconds: time_t) -> String {
        format(compact: false, at: seconds)
    }

    /// The UTC time `secondsLater` seconds from now as `YYYYMMDDHHMMSS`, for timestamped migration
    /// versions.
    package static func compactUTCTimestamp(secondsLater: Int = 0) -> String {
        format(compact: true, at: time(nil) + secondsLater)
    }

    private static func format(compact: Bool, at seconds: time_t) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // Written digit by digit into one buffer: the ledger writes a timestamp with every migration.
        var text: [UInt8] = []
        text.reserveCapacity(24)
        func append(_ value: Int, width: Int, then separator: String) {
            if value < 0 {
                text.append(contentsOf: pad(value, to: width).utf8)
            } else {
                withUnsafeTemporaryAllocation(byteCount: IntegerText.maximumCount, alignment: 1) { buffer in
                    let digits = buffer[IntegerText.write(Int64(value), endingAt: buffer)...]
                    text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - digits.count)))
                    text.append(contentsOf: digits)
                }
            }
            if !compact { text.append(contentsOf: separator.utf8) }
        }
        append(Int(parts.tm_year) + 1900, width: 4, then: "-")
        append(Int(parts.tm_mon) + 1, width: 2, then: "-")
        append(Int(parts.tm_mday), width: 2, then: "T")
        append(Int(parts.tm_hour), width: 2, then: ":")
        append(Int(parts.tm_min), width: 2, then: ":")
        append(Int(parts.tm_sec), width: 2, then: "Z")
        return String(decoding: text, as: UTF8.self)
    }

    /// `value` in decimal, zero-padded on the left to `width` digits.
    package static func pad(_ value: Int, to width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
