import CellarKit
import Glibc

/// Spawns a command and measures it with `wait4`, so each child's own peak memory is known.
enum BenchmarkProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func measure(_ command: BenchmarkCommand) throws -> Measurement {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, command.inputPath ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, command.outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([command.executable] + command.arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let start = now()
        var pid: pid_t = 0
        let code = posix_spawn(&pid, command.executable, &actions, nil, argv, environ)
        guard code == 0 else {
            throw Failure(description: "cannot start \(command.executable): \(String(cString: strerror(code)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure(description: "wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let seconds = now() - start
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Measurement(seconds: seconds, peakBytes: Int(usage.ru_maxrss) * 1024, status: exitStatus)
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        WallClock.milliseconds() / 1000
    }

    /// The peak resident memory of one run of `command`, measured by GNU `time` when it is installed.
    ///
    /// `wait4`'s `ru_maxrss` cannot be used for this: Linux keeps the high-water mark of the memory a
    /// process replaces at `exec`, and `posix_spawn` execs from this benchmark's own memory, so every
    /// child would report at least this process's size. GNU `time` forks from its own small image.
    static func peakMemory(_ command: BenchmarkCommand, scratch: String) throws -> Int? {
        let timer = "/usr/bin/time"
        guard access(timer, X_OK) == 0 else { return nil }
        let report = scratch + "/time-report"
        var timed = command
        timed = BenchmarkCommand(
            executable: timer, arguments: ["-f", "%M", "-o", report, command.executable] + command.arguments,
            inputPath: command.inputPath, outputPath: command.outputPath)
        guard try measure(timed).status == 0 else { return nil }
        let descriptor = open(report, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        return Int(text).map { $0 * 1024 }
    }

    /// Runs `command` to the end, failing unless it exits 0 (for building fixtures).
    static func runChecked(_ command: BenchmarkCommand) throws {
        let result = try measure(command)
        guard result.status == 0 else {
            throw Failure(
                description: "\(command.executable) \(command.arguments.joined(separator: " ")) exited \(result.status)")
        }
    }
}
