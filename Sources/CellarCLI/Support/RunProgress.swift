import CellarKit
import Glibc

/// `run`'s progress line on a terminal: after a second, one line on standard error updated in place
/// with the bytes read of the file's size, the statements run and the rate. It is updated as the script
/// is read (every chunk), on the thread that runs it.
final class RunProgress {
    private let io: IO
    private let runner: ScriptRunner
    private let start = WallClock.milliseconds()
    private var lastShown = 0.0
    private var isOnScreen = false

    init(io: IO, runner: ScriptRunner) {
        self.io = io
        self.runner = runner
    }

    /// `source` with every read reported to this display; `size` is the file's, when known.
    func watching(_ source: any ByteSource, path: String, size: Int?) -> any ByteSource {
        CountingSource(source: source) { [self] total in show(path: path, bytes: total, size: size) }
    }

    /// Removes the line, before the command's own output.
    func clear() {
        guard isOnScreen else { return }
        try? io.error.write("\r\u{1B}[K")
        isOnScreen = false
    }

    private func show(path: String, bytes: Int, size: Int?) {
        let now = WallClock.milliseconds()
        guard now - start >= 1000, now - lastShown >= 100 else { return }
        lastShown = now
        let seconds = (now - start) / 1000
        var text = ControlCharacterEscaping.escape(path) + ": " + ByteSize.text(bytes)
        if let size { text += " of " + ByteSize.text(size) }
        text += ", \(FleetSummary.grouped(runner.statementCount)) statements, \(ByteSize.text(Int(Double(bytes) / seconds)))/s"
        try? io.error.write("\r\u{1B}[K" + text)
        isOnScreen = true
    }
}

/// A byte source that reports the running total of bytes read after each read.
private final class CountingSource: ByteSource {
    private let source: any ByteSource
    private let report: (Int) -> Void
    private var total = 0

    init(source: any ByteSource, report: @escaping (Int) -> Void) {
        self.source = source
        self.report = report
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try source.read(into: buffer)
        total += count
        report(total)
        return count
    }
}
