import CellarKit
import Glibc

/// Where one result goes when `.pager` is on: held back while it fits the screen (then written to the
/// terminal as usual), handed to the pager as soon as it is taller than the screen, and streamed to it
/// from then on.
///
/// The pager reads from one end of a socket pair rather than a pipe, so that writing after the user
/// quit the pager (`q` in `less` before the last row) fails with `EPIPE` (`MSG_NOSIGNAL`) instead of
/// raising SIGPIPE, which would end the shell.
final class PagerSink: ByteSink {
    /// The pager went away before the whole result was written: rendering stops, quietly.
    struct Closed: Error {}

    /// The pager command could not be run (the shell's exit status 126 or 127: not executable, not found).
    struct Unavailable: Error, CustomStringConvertible {
        let command: String
        let status: Int32
        var description: String {
            "the pager '\(command)' could not be run (exit status \(status)); .pager off writes results directly"
        }
    }

    private let terminal: any ByteSink
    private let command: String
    private let maximumLines: Int
    private let start: (String, Int32) throws -> pid_t
    private var held: [UInt8] = []
    private var lineCount = 0
    private var pager: (pid: pid_t, socket: Int32)?

    /// Creates a sink for one result.
    ///
    /// - Parameters:
    ///   - terminal: where a result that fits goes.
    ///   - command: the pager, run with `/bin/sh -c`.
    ///   - screenRows: the terminal's height; a result of more lines than `screenRows - 1` (one line is
    ///     left for the next prompt) goes to the pager.
    ///   - start: starts `command` reading the given descriptor as its standard input.
    init(terminal: any ByteSink, command: String, screenRows: Int, start: @escaping (String, Int32) throws -> pid_t) {
        self.terminal = terminal
        self.command = command
        maximumLines = max(screenRows - 1, 1)
        self.start = start
    }

    deinit {
        if let pager { Glibc.close(pager.socket) }
    }

    /// Whether the result went to the pager.
    var isPaging: Bool { pager != nil }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if let pager {
            try Self.send(bytes, to: pager.socket)
            return
        }
        held.append(contentsOf: bytes)
        lineCount += bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        if lineCount > maximumLines { try startPager() }
    }

    /// Holds everything back until ``finish()``: whether the result fits is known only at its end.
    func flush() throws {}

    /// Ends the result: writes it to the terminal if it fit, else closes the pager's input and waits
    /// until the user leaves the pager.
    ///
    /// - Throws: ``Unavailable`` when the pager command could not be run.
    func finish() throws {
        guard let pager else {
            try held.withUnsafeBytes { try terminal.write($0) }
            held = []
            try terminal.flush()
            return
        }
        self.pager = nil
        Glibc.close(pager.socket)
        var status: Int32 = 0
        while waitpid(pager.pid, &status, 0) < 0, errno == EINTR {}
        let exitCode = (status >> 8) & 0xFF
        if status & 0x7F == 0, exitCode == 126 || exitCode == 127 { throw Unavailable(command: command, status: exitCode) }
    }

    private func startPager() throws {
        try terminal.flush()
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw SystemError(operation: "socketpair", code: errno)
        }
        let pid: pid_t
        do {
            pid = try start(command, ends[1])
        } catch {
            Glibc.close(ends[0])
            Glibc.close(ends[1])
            throw error
        }
        Glibc.close(ends[1])
        pager = (pid, ends[0])
        let bytes = held
        held = []
        try bytes.withUnsafeBytes { try Self.send($0, to: ends[0]) }
    }

    private static func send(_ bytes: UnsafeRawBufferPointer, to socket: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                throw Closed()
            }
            offset += sent
        }
    }
}
