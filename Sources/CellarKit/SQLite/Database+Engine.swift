internal import CSQLite

extension Database: SQLConnection {
    /// Prepares the first statement of `text` at or after `start` with `sqlite3_prepare_v2`, reading
    /// the NUL-terminated text in place (given a length without the terminator, SQLite would copy the
    /// rest of the text at every prepare, which makes a long script quadratic).
    package func prepareStatement(in text: UnsafeBufferPointer<UInt8>, from start: Int) throws -> (
        statement: Statement?, end: Int
    ) {
        let handle = try openHandle()
        var statement: OpaquePointer?
        var consumed = 0
        let code = text.withMemoryRebound(to: CChar.self) { characters in
            let base = characters.baseAddress! + start
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(handle, base, Int32(text.count - start), &statement, &tail)
            consumed = tail.map { $0 - base } ?? (text.count - 1 - start)
            return code
        }
        guard code == SQLITE_OK else {
            let errorOffset = Int(cellar_error_offset(handle))
            sqlite3_finalize(statement)
            throw SQLiteError.read(from: handle, code: code, offset: start + max(errorOffset, 0))
        }
        return (statement.map { Statement(handle: $0, database: self) }, start + consumed)
    }

    /// `sqlite3_interrupt`, through the connection's ``Interrupter``.
    package var interruption: ConnectionInterruption {
        let interrupter = interrupter
        return ConnectionInterruption(method: .sqliteInterrupt) { interrupter.interrupt() }
    }

    /// An in-memory database set up with this connection's options (extensions, functions, safety
    /// settings), holding a copy of this one made with the online backup API when `copyingContents`.
    /// This connection's options: a replay is opened with its extensions and functions.
    package var replayOptions: Database.Options { options }

    package func rehearsalDatabase(copyingContents: Bool) throws -> any SQLConnection {
        try rehearsalFile(copyingContents: copyingContents)
    }

    /// ``rehearsalDatabase(copyingContents:)`` as the database it is.
    package func rehearsalFile(copyingContents: Bool) throws -> Database {
        var copyOptions = options
        copyOptions.mode = .readWriteCreate
        copyOptions.vfsName = nil
        let copy = try Database(path: ":memory:", options: copyOptions)
        if copyingContents { try backup(to: copy) }
        return copy
    }

    // MARK: Capabilities

    package var name: String { path }
    package var makesRehearsalCopies: Bool { true }
    package var tracksTransactions: Bool { true }
    package var localDatabase: Database? { self }
    package var lastStatementChanges: Int? { try? changes }

    package func schemaText() throws -> String {
        try schemaSQL()
    }

    package func duringMigrations<Result>(_ body: () throws -> Result) throws -> Result {
        try PersistentJournal.during(self, body)
    }

    package func attachedDatabases() throws -> [(name: String, file: String)] {
        func text(_ values: [Value], _ index: Int) -> String {
            guard index < values.count, case .text(let text) = values[index] else { return "" }
            return text
        }
        return try query("PRAGMA database_list").map { row in (text(row.values, 1), text(row.values, 2)) }
    }

    package func backUp(toFile path: String, permissions: UInt32?) throws {
        try backup(toFile: path, permissions: permissions)
    }

    package func withTriggerPlans<Result>(_ body: () throws -> Result) throws -> Result {
        let wereOn = try showsTriggerPlans()
        if !wereOn { try setShowsTriggerPlans(true) }
        defer { if !wereOn { try? setShowsTriggerPlans(false) } }
        return try body()
    }
}

extension Statement: SQLStatement {
    package var statusCounters: StatementCounters? { counters }
}
