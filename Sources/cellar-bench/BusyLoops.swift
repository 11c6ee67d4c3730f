import Glibc

/// `--busy N`: processes that keep N CPUs busy while the rows are measured, so that "with two busy loops
/// on the cores" is one command. Each loop is `/bin/sh` spinning; it is killed when cellar-bench exits
/// (normally, on an error, on SIGINT, SIGTERM or SIGHUP), and checks every few hundredths of a second that cellar-bench is
/// still alive, so that not even a SIGKILL of cellar-bench leaves one spinning.
enum BusyLoops {
    /// The loops' process ids, in storage a signal handler can read without the Swift runtime.
    // nonisolated(unsafe): written only by start(), before any handler is installed, and by stop() after
    // every handler that reads them is back to the default; cellar-bench is single-threaded here.
    nonisolated(unsafe) private static var pids = UnsafeMutablePointer<pid_t>.allocate(capacity: 64)
    nonisolated(unsafe) private static var count = 0

    /// The most loops `start` accepts.
    static let maximum = 64

    private static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Starts `loops` spinners and arranges for them to be killed on every way out.
    static func start(_ loops: Int) throws {
        guard loops > 0 else { return }
        atexit { BusyLoops.stop() }
        for signal in signals {
            Glibc.signal(signal) { received in
                BusyLoops.killAll()
                Glibc.signal(received, SIG_DFL)
                raise(received)
            }
        }
        let script = "while kill -0 \"$1\" 2>/dev/null; do i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; done"
        for _ in 0..<min(loops, maximum) {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for descriptor: Int32 in 0...2 {
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            }
            let words: [String] = ["/bin/sh", "-c", script, "busy-loop", String(getpid())]
            let argv = words.map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid: pid_t = 0
            let code = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
            guard code == 0 else {
                stop()
                throw BenchmarkProcess.Failure(description: "cannot start a busy loop: \(String(cString: strerror(code)))")
            }
            pids[count] = pid
            count += 1
        }
    }

    /// Kills the loops and waits for them (nothing when none runs).
    static func stop() {
        guard count > 0 else { return }
        for signal in signals { Glibc.signal(signal, SIG_DFL) }
        killAll()
        for index in 0..<count {
            var status: Int32 = 0
            while waitpid(pids[index], &status, 0) < 0 && errno == EINTR {}
        }
        count = 0
    }

    /// `kill` only: safe in a signal handler.
    private static func killAll() {
        for index in 0..<count { kill(pids[index], SIGKILL) }
    }
}
