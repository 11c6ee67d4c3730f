import Glibc

/// The tests' one polling loop: a condition checked again and again until it holds, for a bounded
/// time, and a failure that says what was awaited when it never does.
public enum Poll {
    /// A wait that passed its timeout.
    public struct Timeout: Error, CustomStringConvertible {
        /// What was awaited and how long.
        public let description: String

        /// A timeout saying `description` (a caller adds what it saw last to the one it caught).
        public init(description: String) {
            self.description = description
        }
    }

    /// Checks `condition` every `interval` seconds until it holds, or throws ``Timeout`` once
    /// `timeout` seconds have passed and a last check fails.
    ///
    /// ```swift
    /// try Poll.until("the journal", timeout: 60) { FileBytes.exists(folder.file("t.db-journal")) }
    /// ```
    ///
    /// - Parameters:
    ///   - what: what is awaited, for the message ("the journal", "a leader").
    /// - Throws: ``Timeout``; an error `condition` throws ends the wait with that error.
    public static func until(
        _ what: String, timeout: Double, every interval: Double = 0.002, _ condition: () throws -> Bool
    ) throws {
        let deadline = ChildProcess.now() + timeout
        while true {
            if try condition() { return }
            if ChildProcess.now() >= deadline { break }
            usleep(useconds_t(interval * 1_000_000))
        }
        let seconds = (max(timeout, 0) * 10).rounded() / 10
        throw Timeout(description: "gave up after \(seconds) s waiting for \(what)")
    }
}
