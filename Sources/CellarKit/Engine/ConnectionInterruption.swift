/// How another thread (the signal watcher, the shell's Ctrl-C) stops the statement a connection is
/// running: one of the capabilities an engine declares (``SQLConnection/interruption``) so that callers
/// never ask which engine they hold.
package struct ConnectionInterruption: Sendable {
    /// What interrupting does.
    package enum Method: Sendable, Equatable {
        /// `sqlite3_interrupt` (<https://sqlite.org/c3ref/interrupt.html>): the statement fails with
        /// `SQLITE_INTERRUPT` wherever it is; the connection and its transaction stay usable.
        case sqliteInterrupt
        /// The connection to the server is dropped while a statement waits for its reply, which makes
        /// it fail with `SQLITE_INTERRUPT` and rolls back the transaction open on the server; a commit
        /// under way is left to finish, so that its outcome is known.
        case droppingConnection
    }

    /// What interrupting does.
    package let method: Method
    private let body: @Sendable () -> Void

    package init(method: Method, _ body: @escaping @Sendable () -> Void) {
        self.method = method
        self.body = body
    }

    /// Stops the running statement, if any, as ``method`` says; callable from any thread.
    package func interrupt() {
        body()
    }
}
