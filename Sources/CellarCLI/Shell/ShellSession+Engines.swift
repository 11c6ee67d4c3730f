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

    /// `error`, thrown while the statement `sql` starting at byte `start` ran, placed as on a file.
    ///
    /// SQLite names the token a prepare fails on (`no such column: x`); a dqlite server sends only the
    /// message. So the statement is prepared again against a local copy of the database's schema (one
    /// query, made only on failure), and when it fails there with the same message its token is the
    /// place; otherwise the place is the statement's first byte.
    func located(_ error: any Error, of sql: String, at start: Int, on connection: some SQLConnection) -> any Error {
        guard let remote = connection as? RemoteConnection, var failure = error as? SQLiteError,
            !failure.isInterrupt, !RemoteConnection.isLeadershipLoss(failure)
        else { return error }
        failure.offset = start
        guard let schema = try? RemoteSchema.copy(of: remote) else { return failure }
        do {
            _ = try schema.prepare(sql)
        } catch let local as SQLiteError where local.message == failure.message {
            failure.offset = start + (local.offset ?? 0)
        } catch {}
        return failure
    }

    /// `error`, thrown while a statement was prepared, placed as on a file: a dqlite server's failure to
    /// prepare a statement (one whose parameters only the server can count) comes with the statement's
    /// text and first byte, and is placed as ``located(_:of:at:on:)`` places it. A syntax error was found
    /// by the local prepare and is at its token already.
    func locatedPrepareFailure(_ error: any Error, on connection: some SQLConnection) -> any Error {
        guard connection is RemoteConnection, let failure = error as? SQLiteError, let sql = failure.sql,
            let start = failure.offset, !RemoteDiagnostic.isSyntaxError(failure.message)
        else { return error }
        return located(failure, of: sql, at: start, on: connection)
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
