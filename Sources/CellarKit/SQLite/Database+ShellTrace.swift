internal import CSQLite

/// A Swift closure receiving each traced line.
private final class ShellTraceBox {
    let body: (String) -> Void
    init(_ body: @escaping (String) -> Void) { self.body = body }
}

extension Database {
    /// Calls `body` with what sqlite3's `.trace` writes for each statement SQLite starts: its SQL, or
    /// for a trigger's steps the `-- …` comment SQLite passes (`sqlite3_trace_v2` with
    /// `SQLITE_TRACE_STMT`, <https://sqlite.org/c3ref/trace_v2.html>); nil stops it. It replaces
    /// ``trace(_:)``, as a connection has one trace callback.
    package func traceStatementText(_ body: ((String) -> Void)?) throws {
        let handle = try openHandle()
        guard let body else {
            callbackBoxes["trace"] = nil
            try check(sqlite3_trace_v2(handle, 0, nil, nil))
            return
        }
        let box = ShellTraceBox(body)
        callbackBoxes["trace"] = box
        let code = sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, statement, text in
                let box = Unmanaged<ShellTraceBox>.fromOpaque(context!).takeUnretainedValue()
                if let comment = text?.assumingMemoryBound(to: CChar.self), comment.pointee == CChar(UInt8(ascii: "-")) {
                    box.body(String(cString: comment))
                } else if let sql = sqlite3_sql(OpaquePointer(statement)) {
                    box.body(String(cString: sql))
                }
                return 0
            }, Unmanaged.passUnretained(box).toOpaque())
        try check(code)
    }
}
