public import CellarKit
import Glibc

/// The streams and environment a command runs with, passed as a value so that the whole CLI can run
/// in-process against buffers in tests.
public struct IO {
    /// Standard input.
    public var input: any ByteSource
    /// Standard output: results.
    public var output: any ByteSink
    /// Standard error: diagnostics, progress and summaries.
    public var error: any ByteSink
    /// The environment variables.
    public var environment: [String: String]
    /// Whether standard input is a terminal.
    public var isInputTerminal: Bool
    /// Whether standard output is a terminal.
    public var isOutputTerminal: Bool
    /// Whether standard error is a terminal.
    public var isErrorTerminal: Bool
    /// The size of the terminal standard output is on, asked each time (nil: not a terminal, or
    /// unknown, as in tests).
    var terminalSize: () -> TerminalSize? = { nil }
    /// The `.env` file whose `DATABASE_URL` and `CELLAR_*` settings apply where the environment has none
    /// (the working directory's for the process; none in-process, where tests give the environment).
    var dotEnvPath: String? = nil

    /// Creates an IO from its parts.
    public init(
        input: any ByteSource, output: any ByteSink, error: any ByteSink, environment: [String: String],
        isInputTerminal: Bool = false, isOutputTerminal: Bool = false, isErrorTerminal: Bool = false
    ) {
        self.input = input
        self.output = output
        self.error = error
        self.environment = environment
        self.isInputTerminal = isInputTerminal
        self.isOutputTerminal = isOutputTerminal
        self.isErrorTerminal = isErrorTerminal
    }

    /// The process's own standard streams and environment.
    public static var standard: IO {
        var io = IO(
            input: FileDescriptorSource(descriptor: STDIN_FILENO),
            output: FileDescriptorSink.standardOutput(),
            error: FileDescriptorSink.standardError(),
            environment: ProcessEnvironment.current,
            isInputTerminal: isatty(STDIN_FILENO) == 1,
            isOutputTerminal: isatty(STDOUT_FILENO) == 1,
            isErrorTerminal: isatty(STDERR_FILENO) == 1)
        io.terminalSize = TerminalSize.ofStandardOutput
        io.dotEnvPath = ".env"
        return io
    }

    /// Writes a line to standard error, ignoring failures (there is nowhere left to report them).
    func printError(_ line: String) {
        try? error.write(line + "\n")
    }

    /// Writes a line to standard output.
    func printOutput(_ line: String) throws {
        try output.write(line + "\n")
    }
}
