extension Database {
    /// Calls `body` with what sqlite3's `.trace` writes for each statement SQLite starts: its SQL, or
    /// for a trigger's steps the `-- …` comment SQLite passes (`sqlite3_trace_v2` with
    /// `SQLITE_TRACE_STMT`, <https://sqlite.org/c3ref/trace_v2.html>); nil stops it. It replaces
    /// ``trace(_:)``, as a connection has one trace callback.
    package func traceStatementText(_ body: ((String) -> Void)?) throws {
        try installTrace(body, passingTriggerComments: true)
    }
}
