internal import CSQLite

/// A connection's counters, as `sqlite3_db_status` reports them (<https://sqlite.org/c3ref/db_status.html>).
public struct ConnectionCounters: Sendable, Equatable {
    /// Lookaside memory slots in use now.
    public var lookasideUsed: Int
    /// Lookaside memory slots in use at most.
    public var lookasideHighest: Int
    /// Bytes of heap the page cache uses.
    public var pagerHeap: Int
    /// Page cache hits.
    public var cacheHits: Int
    /// Page cache misses.
    public var cacheMisses: Int
    /// Pages written from the cache.
    public var cacheWrites: Int
    /// Dirty pages written mid-transaction because the cache was full.
    public var cacheSpills: Int
    /// Bytes of heap the schema uses.
    public var schemaHeap: Int
    /// Bytes of heap and lookaside the prepared statements use.
    public var statementHeap: Int
}

extension Database {
    /// The connection's counters now.
    public var counters: ConnectionCounters {
        get throws {
            let handle = try openHandle()
            func read(_ counter: Int32) -> (current: Int, highest: Int) {
                var current: Int32 = 0
                var highest: Int32 = 0
                sqlite3_db_status(handle, counter, &current, &highest, 0)
                return (Int(current), Int(highest))
            }
            return ConnectionCounters(
                lookasideUsed: read(SQLITE_DBSTATUS_LOOKASIDE_USED).current,
                lookasideHighest: read(SQLITE_DBSTATUS_LOOKASIDE_USED).highest,
                pagerHeap: read(SQLITE_DBSTATUS_CACHE_USED).current,
                cacheHits: read(SQLITE_DBSTATUS_CACHE_HIT).current, cacheMisses: read(SQLITE_DBSTATUS_CACHE_MISS).current,
                cacheWrites: read(SQLITE_DBSTATUS_CACHE_WRITE).current, cacheSpills: read(SQLITE_DBSTATUS_CACHE_SPILL).current,
                schemaHeap: read(SQLITE_DBSTATUS_SCHEMA_USED).current, statementHeap: read(SQLITE_DBSTATUS_STMT_USED).current)
        }
    }
}

extension Database {
    /// The heap memory SQLite uses in this process now, and its highest since the process started
    /// (`sqlite3_status64`; read only, nothing is reset).
    public static var memoryUsed: (current: Int64, highest: Int64) {
        var current: Int64 = 0
        var highest: Int64 = 0
        sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &current, &highest, 0)
        return (current, highest)
    }
}
