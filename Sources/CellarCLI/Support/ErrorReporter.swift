import CellarKit
import Glibc

/// Turns any error a command throws into a message on standard error and an exit status.
struct ErrorReporter {
    let io: IO
    /// Whether `error:` is shown in red.
    let usesColor: Bool

    /// A reporter on `io`; colour defaults to `auto` (standard error is a terminal and `NO_COLOR`
    /// is unset) until the configuration, with its `--color` flag, is known.
    init(io: IO, usesColor: Bool? = nil) {
        self.io = io
        self.usesColor = usesColor ?? (io.isErrorTerminal && io.environment["NO_COLOR", default: ""].isEmpty)
    }

    private var label: String { usesColor ? DiagnosticFormatter.coloredErrorLabel : "error:" }

    /// Reports `error` and returns the exit status it calls for.
    func report(_ error: any Error) -> ExitStatus {
        switch error {
        case let usage as UsageError:
            io.printError("cellar: \(label) \(escaped(usage.message))")
            if let name = usage.command, let command = CommandRegistry.command(named: name) {
                io.printError("usage: \(HelpFormatter.usage(for: command.spec))")
                io.printError("see 'cellar \(name) --help'")
            }
            return .usage
        case let diagnostic as Diagnostic:
            io.printError(DiagnosticFormatter(usesColor: usesColor).format(FlagAdvice.advised(diagnostic)))
            return .failure
        case let failure as SystemError where failure.operation == "write":
            // A closed pipe (`cellar query … | head -1`) ends the command quietly, as SIGPIPE would.
            guard failure.code != EPIPE else { return .outputClosed }
            io.printError("cellar: \(label) cannot write the output: \(String(cString: strerror(failure.code)))")
            return .failure
        case let stop as SignalStop:
            _ = report(stop.underlying)
            return stop.status
        case let failure as CommandFailure:
            io.printError("cellar: \(label) \(escaped(failure.message))")
            return failure.status
        default:
            io.printError("cellar: \(label) \(escaped(String(describing: error)))")
            return .failure
        }
    }

    private func escaped(_ text: String) -> String {
        ControlCharacterEscaping.escape(text)
    }
}

/// A command's own failure with a message and exit status (such as a missing input file, exit 1).
struct CommandFailure: Error {
    let message: String
    var status: ExitStatus = .failure
}
