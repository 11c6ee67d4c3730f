internal import CSQLite

/// Interrupts the running statement of a ``Database`` from another thread or a signal handler's
/// watcher (`sqlite3_interrupt`, <https://sqlite.org/c3ref/interrupt.html>).
///
/// Only valid while its database is open: keep the `Database` alive as long as the interrupter.
public struct Interrupter: @unchecked Sendable {
    // @unchecked: the handle is only passed to sqlite3_interrupt, which SQLite documents as safe to
    // call from any thread while the connection is open.
    private let handle: OpaquePointer?

    init(handle: OpaquePointer?) { self.handle = handle }

    /// Makes the connection's running statement fail with `SQLITE_INTERRUPT` as soon as possible.
    public func interrupt() {
        guard let handle else { return }
        sqlite3_interrupt(handle)
    }
}

extension Database {
    /// A handle that may interrupt this connection from another thread.
    public var interrupter: Interrupter { Interrupter(handle: handle) }

    /// Makes the running statement fail with `SQLITE_INTERRUPT` as soon as possible.
    public func interrupt() { interrupter.interrupt() }
}
