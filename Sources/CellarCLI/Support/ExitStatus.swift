/// The exit statuses: 0 success, 1 an SQL, migration or data error, 2 a usage error,
/// 3 `status --exit-code` found work to do; and, as shells expect, 128 + the signal for a command
/// stopped by SIGINT (130) or SIGTERM (143) after rolling back.
enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    case failure = 1
    case usage = 2
    case workPending = 3
    case interrupted = 130
    case terminated = 143
    /// Standard output was a pipe whose reader went away: 128 + SIGPIPE, as a shell reports a command
    /// that SIGPIPE stopped (when SIGPIPE is ignored, cellar stops at the write that failed).
    case outputClosed = 141
}
