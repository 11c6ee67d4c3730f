internal import CSQLite

/// A Swift closure installed as the connection's progress handler.
private final class ProgressBox {
    let body: () -> Bool
    init(_ body: @escaping () -> Bool) { self.body = body }
}

extension Database {
    /// Calls `body` every `instructions` virtual-machine instructions of a running statement
    /// (<https://sqlite.org/c3ref/progress_handler.html>); nil removes the handler.
    ///
    /// Returning `true` from `body` interrupts the statement (`SQLITE_INTERRUPT`). The migrator uses it to
    /// report a long migration's elapsed time without a second thread.
    public func setProgressHandler(every instructions: Int32, _ body: (() -> Bool)?) throws {
        let handle = try openHandle()
        guard let body else {
            callbackBoxes["progress"] = nil
            sqlite3_progress_handler(handle, 0, nil, nil)
            return
        }
        let box = ProgressBox(body)
        callbackBoxes["progress"] = box
        sqlite3_progress_handler(
            handle, instructions,
            { context in
                Unmanaged<ProgressBox>.fromOpaque(context!).takeUnretainedValue().body() ? 1 : 0
            }, Unmanaged.passUnretained(box).toOpaque())
    }
}
