import CellarKit

/// The fleet's progress line on a terminal, updated in place on standard error: done of total,
/// failures, rate and time left.
struct FleetProgress {
    let total: Int?
    let isShown: Bool
    private let start = WallClock.milliseconds()
    private var isOnScreen = false
    // Never shown: the monotonic clock counts from the process's first reading, so 0 could be "just now".
    private var lastShown = -Double.infinity

    init(total: Int?, isShown: Bool) {
        self.total = total
        self.isShown = isShown
    }

    /// Removes the line, before other output; it is drawn again by the next ``show(_:on:)``.
    mutating func clear(on io: IO) {
        guard isOnScreen else { return }
        try? io.error.write("\r\u{1B}[K")
        isOnScreen = false
        lastShown = -.infinity
    }

    /// Draws the line for `summary` (at most ten times a second).
    mutating func show(_ summary: FleetSummary, on io: IO) {
        guard isShown else { return }
        let now = WallClock.milliseconds()
        guard now - lastShown >= 100 else { return }
        let elapsed = max(now - start, 1)
        let rate = Double(summary.total) / elapsed * 1000
        var text = "\(FleetSummary.grouped(summary.total))"
        if let total { text += " of \(FleetSummary.grouped(total))" }
        text += " databases, \(FleetSummary.grouped(summary.failed)) failed, \(Int(rate.rounded()))/s"
        if let total, rate > 0 {
            let left = Int((Double(total - summary.total) / rate).rounded())
            text += ", \(left / 60):\(WallClock.pad(left % 60, to: 2)) left"
        }
        try? io.error.write("\r\u{1B}[K" + text)
        isOnScreen = true
        lastShown = now
    }
}
