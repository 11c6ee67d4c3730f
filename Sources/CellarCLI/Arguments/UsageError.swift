/// A command line that cannot be run as written: unknown option, missing value, wrong arguments.
/// Reported on standard error with exit status 2.
struct UsageError: Error, Equatable {
    /// What is wrong, in one line.
    let message: String
    /// The command whose usage line should follow the message, if any.
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
