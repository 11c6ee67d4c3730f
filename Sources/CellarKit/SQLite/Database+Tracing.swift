internal import CSQLite

/// A Swift closure receiving the text of each statement SQLite starts.
private final class TraceBox {
    let body: (String) -> Void
    init(_ body: @escaping (String) -> Void) { self.body = body }
}

extension Database {
    /// Calls `body` with the SQL of every statement as it starts running (`sqlite3_trace_v2` with
    /// `SQLITE_TRACE_STMT`); pass nil to stop. Tests use it to check the exact sequence of statements.
    public func trace(_ body: ((String) -> Void)?) throws {
        let handle = try openHandle()
        guard let body else {
            callbackBoxes["trace"] = nil
            try check(sqlite3_trace_v2(handle, 0, nil, nil))
            return
        }
        let box = TraceBox(body)
        callbackBoxes["trace"] = box
        let code = sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, statement, _ in
                let box = Unmanaged<TraceBox>.fromOpaque(context!).takeUnretainedValue()
                if let text = sqlite3_sql(OpaquePointer(statement)) {
                    box.body(String(cString: text))
                }
                return 0
            }, Unmanaged.passUnretained(box).toOpaque())
        try check(code)
    }

    /// How many prepared statements of this connection are not finalized yet (`sqlite3_next_stmt`).
    public var liveStatementCount: Int {
        get throws {
            let handle = try openHandle()
            var count = 0
            var statement = sqlite3_next_stmt(handle, nil)
            while let current = statement {
                count += 1
                statement = sqlite3_next_stmt(handle, current)
            }
            return count
        }
    }
}
