/// How a dot-command ended.
enum DotCommandOutcome: Equatable {
    /// It did what it was asked.
    case succeeded
    /// It failed and said why.
    case failed
    /// It asks the shell to end (`.quit`, `.exit`).
    case quit
}
