internal import CSQLite

/// A Swift closure receiving the text of each statement SQLite starts.
private final class TraceBox {
    let body: (String) -> Void
    /// Whether a trigger's steps reach `body` as the `-- …` comment SQLite passes, as sqlite3's `.trace`
    /// writes them, rather than as the statement's SQL.
    let passesTriggerComments: Bool
    init(_ body: @escaping (String) -> Void, passesTriggerComments: Bool) {
        self.body = body
        self.passesTriggerComments = passesTriggerComments
    }
}

extension Database {
    /// Calls `body` with the SQL of every statement as it starts running (`sqlite3_trace_v2` with
    /// `SQLITE_TRACE_STMT`); pass nil to stop. Tests use it to check the exact sequence of statements.
    public func trace(_ body: ((String) -> Void)?) throws {
        try installTrace(body, passingTriggerComments: false)
    }

    /// The one trace callback of a connection (<https://sqlite.org/c3ref/trace_v2.html>): ``trace(_:)``
    /// and ``traceStatementText(_:)`` differ only in what a trigger's steps show.
    func installTrace(_ body: ((String) -> Void)?, passingTriggerComments: Bool) throws {
        let handle = try openHandle()
        guard let body else {
            callbackBoxes["trace"] = nil
            try check(sqlite3_trace_v2(handle, 0, nil, nil))
            return
        }
        let box = TraceBox(body, passesTriggerComments: passingTriggerComments)
        callbackBoxes["trace"] = box
        let code = sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, statement, text in
                let box = Unmanaged<TraceBox>.fromOpaque(context!).takeUnretainedValue()
                if box.passesTriggerComments, let comment = text?.assumingMemoryBound(to: CChar.self),
                    comment.pointee == CChar(UInt8(ascii: "-"))
                {
                    box.body(String(cString: comment))
                } else if let sql = sqlite3_sql(OpaquePointer(statement)) {
                    box.body(String(cString: sql))
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
