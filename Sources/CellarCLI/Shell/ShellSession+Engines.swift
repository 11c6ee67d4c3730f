import CellarDqlite
import CellarKit

/// What the shell does differently on a database file and on a dqlite database: how Ctrl-C reaches a
/// running statement, how a statement's changes are counted, and what follows a lost leader.
extension ShellSession {
    /// Tells the Ctrl-C watcher that a statement of `connection` runs. A file's statement is
    /// interrupted by SQLite wherever it is (`sqlite3_interrupt`); a dqlite statement cannot be stopped
    /// on the leader, so Ctrl-C stops it before its next row (a statement whose first reply has not come
    /// yet runs to its end on the leader first; rows still coming are stopped by dropping the connection).
    func watchInterrupts(of connection: some SQLConnection) {
        guard let interruptWatcher else { return }
        if let database = connection as? Database {
            interruptWatcher.beginStatement(database.interrupter)
            return
        }
        let flag = CancellationFlag()
        connection.cancellation = flag
        interruptWatcher.beginStatement(nil, cancellation: flag)
    }

    /// Says that the statement ``watchInterrupts(of:)`` announced has stopped.
    func stopWatchingInterrupts(of connection: some SQLConnection) {
        guard let interruptWatcher else { return }
        interruptWatcher.endStatement()
        if !(connection is Database) { connection.cancellation = nil }
    }

    /// Says so when stopping a statement's rows (Ctrl-C, leaving the pager) ended the transaction that
    /// was open: on a dqlite database that drops the connection to the leader, and the transaction with
    /// it (a file's stays open).
    func warnIfStoppingRowsEndedTransaction(wasOpen: Bool, on connection: some SQLConnection) {
        guard wasOpen, connection is RemoteConnection, (try? connection.isAutocommit) == true else { return }
        io.printError(
            "cellar: warning: stopping the rows closed the connection to the dqlite leader: the open transaction was rolled back")
    }

    /// After the pager was left before the last row: a dqlite query's rows still coming are stopped as
    /// Ctrl-C stops them, not read to their end (a file's statement just ends).
    func stopReadingRows(of statement: some SQLStatement) {
        guard let remote = statement as? RemoteStatement else { return }
        let wasOpen = (try? connection.isAutocommit) == false
        remote.abandonRows()
        warnIfStoppingRowsEndedTransaction(wasOpen: wasOpen, on: connection)
    }

    /// The rows the last statement changed: SQLite's count on a file (`sqlite3_changes`, without the
    /// changes its triggers made), the growth of the total on an engine without one.
    func statementChanges(on connection: some SQLConnection, total: Int, before: Int?) -> Int {
        if let database = connection as? Database { return (try? database.changes) ?? 0 }
        return total - (before ?? total)
    }

    /// After a lost dqlite leader: the open transaction, if any, is gone, and whether the statement
    /// took effect is unknown; finds the new leader (within the busy timeout) so that the next
    /// statement runs, and says so.
    func findNewLeader() {
        guard let remote = connection as? RemoteConnection else { return }
        do {
            let leader = try remote.reconnect()
            io.printError(
                "cellar: warning: lost the dqlite leader; \(leader) leads now. An open transaction was rolled back, "
                    + "and the failed statement may or may not have taken effect")
        } catch {
            reportError("lost the dqlite leader and found no new one: \(error)")
        }
    }
}
