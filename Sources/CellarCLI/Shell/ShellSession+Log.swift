import CellarKit
import Glibc

/// sqlite3's `.log FILE|stdout|stderr|off`: SQLite's error log (``SQLiteLog``), which is the whole
/// process's, as in sqlite3.
extension ShellSession {
    /// A sink shared with SQLite's log callback, which may run on any thread that calls SQLite.
    private final class LogSink: @unchecked Sendable {
        let sink: any ByteSink
        let descriptor: Int32?
        init(sink: any ByteSink, descriptor: Int32?) {
            self.sink = sink
            self.descriptor = descriptor
        }
        func write(_ code: Int32, _ message: String) {
            try? sink.write("(\(code)) \(message)\n")
            try? sink.flush()
        }
    }

    /// `.log FILE|stdout|stderr|off`: where SQLite's messages go from now on, `(CODE) MESSAGE` a line.
    /// FILE is replaced, and readable by its owner only (the messages quote SQL, and so data).
    func setLog(_ command: DotCommandLine) throws {
        let target = command.arguments.first ?? "off"
        closeLog()
        let sink: LogSink
        switch target {
        case "off": return
        case "stdout", "-": sink = LogSink(sink: io.output, descriptor: nil)
        case "stderr": sink = LogSink(sink: io.error, descriptor: nil)
        default:
            let descriptor = Glibc.open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw DotCommandError("cannot open '\(target)': \(String(cString: strerror(errno)))")
            }
            sink = LogSink(sink: FileDescriptorSink(descriptor: descriptor), descriptor: descriptor)
        }
        logDescriptor = sink.descriptor
        isLogging = true
        guard SQLiteLog.setDestination({ sink.write($0, $1) }) else {
            closeLog()
            throw DotCommandError("SQLite's log cannot be routed in this process: SQLite started before cellar set it up")
        }
    }

    /// Stops logging and closes a log file.
    func closeLog() {
        SQLiteLog.setDestination(nil)
        if let logDescriptor { Glibc.close(logDescriptor) }
        logDescriptor = nil
        isLogging = false
    }
}
