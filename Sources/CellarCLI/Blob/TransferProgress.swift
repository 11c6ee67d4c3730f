import CellarKit

/// The progress line of `blob put|get` on a terminal: `wine.label, rowid 7: 312.0 MiB of 1.0 GiB (30%)`,
/// redrawn at most ten times a second and cleared at the end.
final class TransferProgress {
    private let io: IO
    private let label: String
    private let total: Int
    private let isShown: Bool
    // Never drawn: the monotonic clock counts from the process's first reading, so 0 could be "just now".
    private var lastDrawn = -Double.infinity
    private var hasDrawn = false

    /// A progress line for `total` bytes, shown only when `isShown` (standard error is a terminal
    /// and `--quiet` was not given).
    init(io: IO, label: String, total: Int, isShown: Bool) {
        self.io = io
        self.label = ControlCharacterEscaping.escape(label)
        self.total = total
        self.isShown = isShown
    }

    /// Redraws the line for `copied` bytes, if a tenth of a second has passed.
    func update(_ copied: Int) {
        guard isShown else { return }
        let now = WallClock.milliseconds()
        guard now - lastDrawn >= 100 else { return }
        lastDrawn = now
        hasDrawn = true
        let percent = total == 0 ? 100 : copied * 100 / total
        try? io.error.write(
            "\r\u{1B}[K\(label): \(ByteSize.text(copied)) of \(ByteSize.text(total)) (\(percent)%)")
    }

    /// Clears the line.
    func finish() {
        guard hasDrawn else { return }
        try? io.error.write("\r\u{1B}[K")
    }
}
