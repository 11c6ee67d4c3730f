import CellarKit

/// Turns any error a command throws into a message on standard error and an exit status.
struct ErrorReporter {
    let io: IO

    /// Reports `error` and returns the exit status it calls for.
    func report(_ error: any Error) -> ExitStatus {
        switch error {
        case let usage as UsageError:
            io.printError("cellar: error: \(escaped(usage.message))")
            if let name = usage.command, let command = CommandRegistry.command(named: name) {
                io.printError("usage: \(HelpFormatter.usage(for: command.spec))")
                io.printError("see 'cellar \(name) --help'")
            }
            return .usage
        case let diagnostic as Diagnostic:
            io.printError(DiagnosticFormatter(usesColor: false).format(diagnostic))
            return .failure
        case let failure as CommandFailure:
            io.printError("cellar: error: \(escaped(failure.message))")
            return failure.status
        default:
            io.printError("cellar: error: \(escaped(String(describing: error)))")
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
