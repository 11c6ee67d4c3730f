internal import CSQLite

extension Database {
    /// Copies this database's `main` schema into `target`'s, with the online backup API
    /// (<https://sqlite.org/backup.html>), in one pass.
    ///
    /// ```swift
    /// let copy = try Database(path: ":memory:")
    /// try db.backup(to: copy)
    /// ```
    /// - Throws: ``SQLiteError`` when the copy cannot start or fails (`target`'s error).
    public func backup(to target: Database) throws {
        let targetHandle = try target.openHandle()
        guard let backup = sqlite3_backup_init(targetHandle, "main", try openHandle(), "main") else {
            throw SQLiteError.read(from: targetHandle, code: sqlite3_errcode(targetHandle))
        }
        let stepCode = sqlite3_backup_step(backup, -1)
        // sqlite3_backup_finish returns the error of the last step, if any, and always releases the backup.
        let finishCode = sqlite3_backup_finish(backup)
        guard stepCode == SQLITE_DONE, finishCode == SQLITE_OK else {
            throw SQLiteError.read(from: targetHandle, code: finishCode == SQLITE_OK ? stepCode : finishCode)
        }
    }
}
