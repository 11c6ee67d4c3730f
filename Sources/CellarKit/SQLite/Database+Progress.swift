internal import CSQLite

/// Swift closures installed as the connection's progress handler: the app's and, while it works, cellar's.
final class ProgressHandlers {
    var app: (instructions: Int32, body: () -> Bool)?
    var cellar: (instructions: Int32, body: () -> Bool)?

    /// Whether the running statement should be interrupted; every installed handler is called.
    func shouldInterrupt() -> Bool {
        let cellarAnswer = cellar?.body() ?? false
        let appAnswer = app?.body() ?? false
        return cellarAnswer || appAnswer
    }
}

extension Database {
    /// Calls `body` every `instructions` virtual-machine instructions of a running statement
    /// (<https://sqlite.org/c3ref/progress_handler.html>); nil removes the handler.
    ///
    /// Returning `true` from `body` interrupts the statement (`SQLITE_INTERRUPT`). The handler stays
    /// installed while CellarKit works on the connection (the migrator adds its own beside it).
    public func setProgressHandler(every instructions: Int32, _ body: (() -> Bool)?) throws {
        _ = try openHandle()
        progressHandlers.app = body.map { (instructions, $0) }
        try installProgressHandlers()
    }

    /// Runs `body` with `handler` called every `instructions` instructions beside the app's handler,
    /// which is back as it was afterwards. The migrator reports a long migration's elapsed time this way.
    package func withProgressHandler<Result>(
        every instructions: Int32, _ handler: @escaping () -> Bool, _ body: () throws -> Result
    ) throws -> Result {
        _ = try openHandle()
        progressHandlers.cellar = (instructions, handler)
        try installProgressHandlers()
        defer {
            progressHandlers.cellar = nil
            try? installProgressHandlers()
        }
        return try body()
    }

    private func installProgressHandlers() throws {
        let handle = try openHandle()
        let intervals = [progressHandlers.app?.instructions, progressHandlers.cellar?.instructions].compactMap { $0 }
        guard let instructions = intervals.min() else {
            sqlite3_progress_handler(handle, 0, nil, nil)
            return
        }
        sqlite3_progress_handler(
            handle, instructions,
            { context in
                Unmanaged<ProgressHandlers>.fromOpaque(context!).takeUnretainedValue().shouldInterrupt() ? 1 : 0
            }, Unmanaged.passUnretained(progressHandlers).toOpaque())
    }
}
