internal import CSQLite

/// What a statement did, as `sqlite3_stmt_status` counts it (<https://sqlite.org/c3ref/stmt_status.html>).
public struct StatementCounters: Sendable, Equatable {
    /// Forward steps through a table in a full scan.
    public var fullscanSteps: Int
    /// Sorts.
    public var sortOperations: Int
    /// Rows inserted into automatic indexes.
    public var autoindexInserts: Int
    /// Virtual machine operations.
    public var virtualMachineSteps: Int
    /// Times the statement was prepared again (after a schema change).
    public var reprepares: Int
    /// Times the statement ran.
    public var runs: Int
    /// Bytes of heap the statement uses.
    public var memoryUsed: Int
}

extension Statement {
    /// The statement's counters now.
    public var counters: StatementCounters {
        func read(_ counter: Int32) -> Int { Int(sqlite3_stmt_status(handle, counter, 0)) }
        return StatementCounters(
            fullscanSteps: read(SQLITE_STMTSTATUS_FULLSCAN_STEP), sortOperations: read(SQLITE_STMTSTATUS_SORT),
            autoindexInserts: read(SQLITE_STMTSTATUS_AUTOINDEX), virtualMachineSteps: read(SQLITE_STMTSTATUS_VM_STEP),
            reprepares: read(SQLITE_STMTSTATUS_REPREPARE), runs: read(SQLITE_STMTSTATUS_RUN),
            memoryUsed: read(SQLITE_STMTSTATUS_MEMUSED))
    }
}
