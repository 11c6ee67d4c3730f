internal import CSQLite
import Synchronization

/// SQLite's error log (<https://sqlite.org/errlog.html>): the errors and warnings SQLite reports
/// through `sqlite3_log`, such as `(284) automatic index on t(x)`, for the whole process.
///
/// SQLite accepts its log callback only before it starts, so the first ``Database`` installs one;
/// messages go to the ``destination`` set here, nowhere by default. The sqlite3 shell's `.log`.
package enum SQLiteLog {
    /// Where messages go: called with SQLite's result code and message, on the thread that logs.
    package typealias Destination = @Sendable (_ code: Int32, _ message: String) -> Void

    private static let current = Mutex<Destination?>(nil)

    /// Whether the callback is in place (false when SQLite had started before any ``Database`` was
    /// opened, by a call that starts it: then ``destination`` receives nothing).
    package static let isInstalled: Bool = {
        cellar_config_log(
            { _, code, message in
                guard let message else { return }
                let text = String(cString: message)
                SQLiteLog.current.withLock { $0 }?(code, text)
            }, nil) == SQLITE_OK
    }()

    /// Sends every message SQLite logs from now on to `destination` (nil: nowhere).
    ///
    /// - Returns: whether messages can reach it (see ``isInstalled``).
    @discardableResult
    package static func setDestination(_ destination: Destination?) -> Bool {
        current.withLock { $0 = destination }
        return isInstalled
    }
}
