internal import CSQLite

extension Database {
    /// Loads an SQLite extension (a shared library) into this connection
    /// (<https://sqlite.org/loadext.html>).
    ///
    /// Extension loading is off on every connection; this turns it on for the C API only and only for
    /// the duration of the call, so the SQL function `load_extension()` stays unavailable to SQL text.
    ///
    /// - Parameters:
    ///   - path: the library's path (SQLite tries the platform's suffix when it is left out).
    ///   - entryPoint: the initialisation function, or nil for SQLite's default name.
    /// - Throws: ``SQLiteError`` naming the library, with SQLite's reason, when it cannot be loaded.
    public func loadExtension(_ path: String, entryPoint: String? = nil) throws {
        let handle = try openHandle()
        try check(cellar_db_config_int(handle, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, nil))
        defer { cellar_db_config_int(handle, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nil) }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_load_extension(handle, path, entryPoint, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(code: code, message: "cannot load extension '\(path)': \(text)")
        }
    }
}
