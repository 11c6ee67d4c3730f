import CellarKit

/// What the shell does that depends on what the engine can do, asked of the connection
/// (``SQLConnection``'s capabilities), never of its type: how Ctrl-C reaches a running statement, how a
/// statement's changes are counted, and what follows a lost connection.
extension ShellSession {
    /// Tells the Ctrl-C watcher that a statement of `connection` runs. Ctrl-C sets the connection's
    /// cancellation flag (a dqlite statement's rows stop before the next one) and interrupts the
    /// statement as the engine can: a file's wherever it is (`sqlite3_interrupt`), a dqlite one waiting
    /// for the leader's reply by dropping the connection, which rolls back the leader's transaction.
    func watchInterrupts(of connection: some SQLConnection) {
        guard let interruptWatcher else { return }
        let flag = CancellationFlag()
        connection.cancellation = flag
        interruptWatcher.beginShellStatement(connection.interruption, cancellation: flag)
    }

    /// Says that the statement ``watchInterrupts(of:)`` announced has stopped.
    func stopWatchingInterrupts(of connection: some SQLConnection) {
        guard let interruptWatcher else { return }
        interruptWatcher.endShellStatement()
        connection.cancellation = nil
    }

    /// Says so when stopping a statement (Ctrl-C, leaving the pager) ended the transaction that was
    /// open: an engine that interrupts by dropping its connection loses the transaction with it (a
    /// file's stays open).
    func warnIfStoppingRowsEndedTransaction(wasOpen: Bool, on connection: some SQLConnection) {
        guard wasOpen, connection.interruption.method == .droppingConnection, (try? connection.isAutocommit) == true
        else { return }
        io.printError(
            "cellar: warning: stopping the rows closed the connection to the dqlite leader: the open transaction was rolled back")
    }

    /// After the pager was left before the last row: rows still streaming from a server are stopped as
    /// Ctrl-C stops them, not read to their end (a file's statement just ends).
    func stopReadingRows(of statement: some SQLStatement) {
        let wasOpen = (try? connection.isAutocommit) == false
        statement.abandonRows()
        warnIfStoppingRowsEndedTransaction(wasOpen: wasOpen, on: connection)
    }

    /// The rows the last statement changed: the engine's count for the statement where it keeps one
    /// (`sqlite3_changes`, without the changes its triggers made), else the growth of the total.
    func statementChanges(on connection: some SQLConnection, total: Int, before: Int?) -> Int {
        connection.lastStatementChanges ?? (total - (before ?? total))
    }

    /// After a statement failed with `error`: when it was a lost connection (a dqlite leader), the open
    /// transaction is gone and whether the statement took effect is unknown; connects again (within the
    /// busy timeout) so that the next statement runs, and says so.
    func reconnectIfLost(after error: any Error) {
        do {
            guard let leader = try connection.reconnect(after: error) else { return }
            io.printError(
                "cellar: warning: lost the dqlite leader; \(leader) leads now. An open transaction was rolled back, "
                    + "and the failed statement may or may not have taken effect")
        } catch {
            reportError("lost the dqlite leader and found no new one: \(error)")
        }
    }
}
