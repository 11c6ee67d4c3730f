import CellarKit
import Glibc

/// A child process started with `posix_spawn`, its output going to files (so a chatty child can never
/// block on a full pipe), waited for with a deadline.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: pid and paths are immutable; wait(timeout:) is meant to be called from one test.
    /// How a finished child ended.
    public struct Result: Sendable, CustomStringConvertible {
        /// The exit status, or 128 + signal number when a signal killed it.
        public let status: Int32
        /// Whether it was killed because it passed its deadline.
        public let timedOut: Bool
        /// Everything it wrote to standard output.
        public let output: String
        /// Everything it wrote to standard error.
        public let error: String
        /// Standard output as bytes.
        public let outputBytes: [UInt8]

        /// A summary for test failure messages.
        public var description: String {
            "status \(status)\(timedOut ? " (timed out)" : "")\nstdout: \(output)\nstderr: \(error)"
        }
    }

    /// The child's process id.
    public let pid: pid_t
    /// The write end of the child's standard input when it was started with `pipesInput`, or -1.
    public private(set) var inputWriter: Int32 = -1
    private let scratch: TemporaryDirectory

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: the whole environment of the child (nil inherits this process's).
    ///   - directory: the working directory, if not this process's.
    ///   - input: bytes fed to standard input (empty input when nil).
    ///   - pipesInput: standard input is a pipe that the test feeds through ``feed(_:)`` and ends with
    ///     ``closeInput()`` (then `input` is ignored).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        directory: String? = nil, input: [UInt8]? = nil, pipesInput: Bool = false
    ) throws {
        scratch = TemporaryDirectory()
        let inputPath = scratch.file("stdin")
        try FileBytes.write(input ?? [], to: inputPath)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if pipesInput {
            // A child that exits early must fail the test, not kill the test process with SIGPIPE.
            signal(SIGPIPE, SIG_IGN)
            // Both ends close on exec; dup2 gives the child a plain descriptor 0 on the read end.
            guard pipe(&pipeEnds) == 0 else { throw FileBytes.Failure(description: "pipe: errno \(errno)") }
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        }
        defer { if pipesInput { close(pipeEnds[0]) } }
        posix_spawn_file_actions_addopen(&actions, 1, scratch.file("stdout"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, scratch.file("stderr"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // glibc's posix_spawn_file_actions_addchdir_np is not visible to Swift here: change folder in a shell.
        let command = directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0, executable] } ?? [executable]
        let argv = (command + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environmentEntries = (environment ?? ChildProcess.currentEnvironment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in environmentEntries { free(pointer) } }
        var child: pid_t = 0
        // A child inherits the spawning thread's signal mask, and a test thread may have SIGINT and
        // SIGTERM blocked (cellar's in-process commands block them): start every child with none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let code = posix_spawn(&child, command[0], &actions, &attributes, argv, environmentEntries)
        guard code == 0 else {
            if pipesInput { close(pipeEnds[1]) }
            throw FileBytes.Failure(description: "cannot start \(executable): errno \(code)")
        }
        pid = child
        inputWriter = pipeEnds[1]
    }

    deinit {
        closeInput()
    }

    /// Writes `bytes` to the child's piped standard input.
    public func feed(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(inputWriter, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw FileBytes.Failure(description: "feeding the child failed: errno \(errno)") }
            offset += written
        }
    }

    /// Ends the child's piped standard input.
    public func closeInput() {
        guard inputWriter >= 0 else { return }
        close(inputWriter)
        inputWriter = -1
    }

    /// What the child has written to standard output so far (it may still be writing), for readiness
    /// polling before a signal.
    public func outputSoFar() -> String {
        (try? FileBytes.readText(scratch.file("stdout"))) ?? ""
    }

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the child to end; kills it with SIGKILL once `timeout` seconds have passed.
    public func wait(timeout: Double = 60) throws -> Result {
        var status: Int32 = 0
        var timedOut = false
        do {
            try Poll.until("process \(pid) to end", timeout: timeout) {
                let result = waitpid(pid, &status, WNOHANG)
                if result < 0, errno != EINTR { throw FileBytes.Failure(description: "waitpid failed: errno \(errno)") }
                return result == pid
            }
        } catch is Poll.Timeout {
            timedOut = true
            kill(pid, SIGKILL)
            // SIGKILL cannot be caught or ignored: the child ends, and a blocking wait reaps it.
            while waitpid(pid, &status, 0) != pid {
                guard errno == EINTR else { throw FileBytes.Failure(description: "waitpid failed: errno \(errno)") }
            }
        }
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let outputBytes = try FileBytes.read(scratch.file("stdout"))
        return Result(
            status: exitStatus, timedOut: timedOut, output: String(decoding: outputBytes, as: UTF8.self),
            error: try FileBytes.readText(scratch.file("stderr")), outputBytes: outputBytes)
    }

    /// Seconds on the monotonic clock.
    public static func now() -> Double {
        WallClock.milliseconds() / 1000
    }

    /// This process's environment.
    public static var currentEnvironment: [String: String] { ProcessEnvironment.current }
}

/// Runs other programs to the end.
public enum Shell {
    /// Runs `executable` and waits (at most `timeout` seconds) for it to end.
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        directory: String? = nil, input: [UInt8]? = nil, timeout: Double = 120
    ) throws -> ChildProcess.Result {
        try ChildProcess(executable, arguments, environment: environment, directory: directory, input: input).wait(
            timeout: timeout)
    }
}
