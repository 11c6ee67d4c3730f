import CellarKit
import Glibc

/// A progress line on a terminal's standard error: after a second, one line updated in place (at most
/// ten times a second), removed before the command's own output. `run`, `.import`, `dump` and
/// `restore` show theirs with it, and only when standard error is a terminal and `-q` is not given
/// (``ProgressLine/forTerminal(_:)``).
final class ProgressLine {
    private let io: IO
    private let start = WallClock.milliseconds()
    // Never shown: the monotonic clock counts from the process's first reading, so 0 could be "just now".
    private var lastShown = -Double.infinity
    private var isOnScreen = false

    init(io: IO) {
        self.io = io
    }

    /// How long a command runs before its line shows: a second. Debug builds read
    /// `CELLAR_PROGRESS_AFTER_MS` instead when it is set, so that a test sees the line of work that
    /// ends sooner on a fast machine; with the fault pause at `progress:shown` (``FaultPause``) the
    /// command then waits, its line on screen, until the test lets it go on.
    private static let delayMilliseconds: Double = {
        #if DEBUG
            if let text = getenv("CELLAR_PROGRESS_AFTER_MS"), let value = Double(String(cString: text)) { return value }
        #endif
        return 1000
    }()

    /// A progress line when `invocation`'s standard error is a terminal and it is not quiet; nil
    /// otherwise (nothing is shown).
    static func forTerminal(_ invocation: Invocation) -> ProgressLine? {
        invocation.io.isErrorTerminal && !invocation.configuration.isQuiet ? ProgressLine(io: invocation.io) : nil
    }

    /// Shows the text `describe` makes from the seconds elapsed, when a second has passed since the
    /// start and a tenth since the line last changed (`describe` is not called otherwise).
    func update(_ describe: (_ seconds: Double) -> String) {
        let now = WallClock.milliseconds()
        guard now - start >= Self.delayMilliseconds, now - lastShown >= 100 else { return }
        lastShown = now
        try? io.error.write("\r\u{1B}[K" + describe(max(now - start, 1) / 1000))
        if !isOnScreen {
            isOnScreen = true
            FaultPause.reach("progress:shown")
        }
    }

    /// Removes the line, before the command's own output.
    func clear() {
        guard isOnScreen else { return }
        try? io.error.write("\r\u{1B}[K")
        isOnScreen = false
    }

    /// `what: 12.0 MiB of 40.0 MiB, 3.0 MiB/s` (without `of …` when the size is not known), `what`
    /// escaped for the terminal, `detail` (a count) after the size.
    static func text(_ what: String, bytes: Int, of size: Int?, detail: String? = nil, seconds: Double) -> String {
        var text = ControlCharacterEscaping.escape(what) + ": " + ByteSize.text(bytes)
        if let size { text += " of " + ByteSize.text(size) }
        if let detail { text += ", " + detail }
        return text + ", \(ByteSize.text(Int(Double(bytes) / seconds)))/s"
    }

    /// `source` with every read reported to `report` (the bytes read so far).
    static func counting(_ source: any ByteSource, report: @escaping (Int) -> Void) -> any ByteSource {
        CountingSource(source: source, report: report)
    }

    /// `sink` with every write reported to `report` (the bytes written so far).
    static func counting(_ sink: any ByteSink, report: @escaping (Int) -> Void) -> any ByteSink {
        CountingSink(sink: sink, report: report)
    }

    /// The size of a regular file, for a progress line; nil for a pipe or standard input.
    static func size(of descriptor: Int32) -> Int? {
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}

/// `run`'s progress line: the bytes read of the file's size, the statements run and the rate. It is
/// updated as the script is read (every chunk), on the thread that runs it.
final class RunProgress {
    private let line: ProgressLine
    private let runner: ScriptRunner

    init(line: ProgressLine, runner: ScriptRunner) {
        self.line = line
        self.runner = runner
    }

    /// `source` with every read reported to this display; `size` is the file's, when known.
    func watching(_ source: any ByteSource, path: String, size: Int?) -> any ByteSource {
        ProgressLine.counting(source) { [self] total in
            line.update { seconds in
                ProgressLine.text(
                    path, bytes: total, of: size, detail: "\(FleetSummary.grouped(runner.statementCount)) statements",
                    seconds: seconds)
            }
        }
    }

    /// Removes the line, before the command's own output.
    func clear() {
        line.clear()
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

/// A byte sink that reports the running total of bytes written after each write.
private final class CountingSink: ByteSink {
    private let sink: any ByteSink
    private let report: (Int) -> Void
    private var total = 0

    init(sink: any ByteSink, report: @escaping (Int) -> Void) {
        self.sink = sink
        self.report = report
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try sink.write(bytes)
        total += bytes.count
        report(total)
    }

    func flush() throws {
        try sink.flush()
    }
}
