internal import CSQLite

extension Database {
    /// Runs `sql`, one statement whose rows are not wanted, with `arguments` bound, from a statement
    /// prepared the first time and kept by the connection for the next time, instead of compiling the
    /// same text again: for the few statements the migrator runs around every migration (the ledger's
    /// rows, `BEGIN IMMEDIATE`, `COMMIT`).
    ///
    /// SQLite itself compiles a kept statement again when what it was compiled against changed (the
    /// schema, an authorizer installed since: <https://sqlite.org/c3ref/prepare.html>, "v2" behaviour), so
    /// that it runs as a fresh one would. The statement is reset after each run, also after a failure,
    /// so that it holds no lock or read transaction between runs. Errors are those of
    /// ``execute(_:_:)`` for the same text.
    package func executeReused(_ sql: String, _ arguments: [any ValueConvertible] = []) throws {
        let handle = try openHandle()
        let kept: OpaquePointer
        if let statement = reusedStatements[sql] {
            kept = statement
        } else {
            var prepared: OpaquePointer?
            let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard code == SQLITE_OK, let prepared else {
                let errorOffset = Int(cellar_error_offset(handle))
                sqlite3_finalize(prepared)
                var error =
                    code == SQLITE_OK
                    ? SQLiteError(code: SQLITE_MISUSE, message: "no SQL statement to prepare", offset: 0)
                    : SQLiteError.read(from: handle, code: code, offset: max(errorOffset, 0))
                error.sql = sql
                throw error
            }
            reusedStatements[sql] = prepared
            kept = prepared
        }
        defer { sqlite3_reset(kept) }
        let statement = Statement(handle: kept, database: self, finalizes: false)
        var queue = ArgumentQueue(arguments)
        do {
            try queue.bind(to: statement, at: 0)
            do {
                while try statement.step() {}
            } catch var error as SQLiteError {
                // As StatementCursor.run places a step's error: at the statement's first character.
                error.offset = error.offset ?? 0
                throw error
            }
            try queue.checkUsedUp()
        } catch var error as SQLiteError {
            error.sql = sql
            throw error
        }
    }

    /// Finalizes the statements ``executeReused(_:_:)`` kept (the migrator does at the end of its run);
    /// the next use prepares its statement again.
    package func releaseReusedStatements() {
        for statement in reusedStatements.values { sqlite3_finalize(statement) }
        reusedStatements.removeAll()
    }
}
