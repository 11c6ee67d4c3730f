import CellarKit
import Glibc

/// sqlite3's `.shell`/`.system` and `.load`.
extension ShellSession {
    /// `.shell CMD` / `.system CMD`: runs CMD with `/bin/sh -c`, with Ctrl-C, SIGQUIT and SIGPIPE
    /// back to their defaults and no signal blocked (the shell blocks SIGINT for its watcher). At a
    /// terminal it has the terminal; otherwise its standard output joins the shell's output (an
    /// `.output` file included).
    func runSystemCommand(_ command: DotCommandLine) throws {
        guard !command.rest.isEmpty else { throw DotCommandError("Usage: .\(command.name) CMD") }
        try output.flush()
        let capturesOutput = !isOutputTerminal
        var descriptors: [Int32] = [-1, -1]
        if capturesOutput {
            guard pipe(&descriptors) == 0 else {
                throw DotCommandError("cannot run the command: \(SystemError(operation: "pipe", code: errno))")
            }
            _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
        }
        let pid: pid_t
        do {
            pid = try Self.spawnShell(command.rest, output: capturesOutput ? descriptors[1] : nil)
        } catch {
            if capturesOutput { for descriptor in descriptors { Glibc.close(descriptor) } }
            throw error
        }
        if capturesOutput {
            Glibc.close(descriptors[1])
            defer { Glibc.close(descriptors[0]) }
            try copyToOutput(from: descriptors[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                throw DotCommandError("cannot wait for the command: \(SystemError(operation: "waitpid", code: errno))")
            }
        }
        let signal = status & 0x7F
        if signal != 0 { throw DotCommandError("the command was ended by signal \(signal)") }
        let exitCode = (status >> 8) & 0xFF
        if exitCode != 0 { throw DotCommandError("the command exited with status \(exitCode)") }
    }

    /// Starts `/bin/sh -c text`, its standard input on `input` and its standard output on `output`
    /// when given.
    static func spawnShell(_ text: String, input: Int32? = nil, output: Int32?) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO)
        }
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
            posix_spawn_file_actions_addclose(&actions, output)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let words: [String] = ["/bin/sh", "-c", text]
        let arguments = words.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environ)
        guard code == 0 else {
            throw DotCommandError("cannot run the command: \(SystemError(operation: "posix_spawn", code: code))")
        }
        return pid
    }

    private func copyToOutput(from descriptor: Int32) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            try buffer.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
        try output.flush()
    }

    /// `.load FILE [ENTRY]`: loads an SQLite extension into the connection through the C API (the
    /// SQL function `load_extension()` stays off).
    func loadExtension(_ command: DotCommandLine) throws {
        guard (1...2).contains(command.arguments.count) else { throw DotCommandError("Usage: .load FILE [ENTRY]") }
        try database.loadExtension(command.arguments[0], entryPoint: command.arguments.count == 2 ? command.arguments[1] : nil)
    }
}
