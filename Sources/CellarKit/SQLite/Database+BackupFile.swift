internal import CSQLite
import Glibc

extension Database {
    /// Writes a consistent copy of this database to a new file at `path` with the online backup API
    /// (<https://sqlite.org/backup.html>), durably: the copy is written beside its final name, fsynced,
    /// given `permissions`, renamed into place and its folder fsynced, so a crash leaves either no
    /// backup or a whole one.
    ///
    /// ```swift
    /// try db.backup(toFile: "app.sqlite.20261130120000.v7.bak", permissions: 0o600)
    /// ```
    /// - Parameter permissions: the copy's mode bits (`st_mode & 0o7777`); nil leaves the default.
    /// - Throws: ``SystemError`` when `path` exists or a file operation fails, ``SQLiteError`` from the copy.
    public func backup(toFile path: String, permissions: UInt32? = nil) throws {
        guard access(path, F_OK) != 0 else { throw SystemError(operation: "create \(path)", code: EEXIST) }
        let temporary = path + ".partial-\(getpid())"
        do {
            // The copy is made with SQLite's own file locking, so the temporary is a normal database.
            let copy = try Database(path: temporary, options: Options(mode: .readWriteCreate))
            try backup(to: copy)
            try copy.close()
            if let permissions, chmod(temporary, mode_t(permissions)) != 0 {
                throw SystemError(operation: "chmod \(temporary)", code: errno)
            }
            try Self.fsync(temporary)
            guard rename(temporary, path) == 0 else { throw SystemError(operation: "rename \(temporary)", code: errno) }
        } catch {
            unlink(temporary)
            unlink(temporary + "-journal")
            throw error
        }
        try Self.fsync(Self.folder(of: path))
    }

    /// Replaces this database's content with the database at `source`, with the online backup API in
    /// one step: the copy holds this database's write lock from start to end (waiting for it up to the
    /// busy timeout), so other connections see the old database or the new one, never a mix.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_BUSY`) when another connection keeps the lock; this database
    ///   is then unchanged.
    public func restore(from source: Database) throws {
        try source.backup(to: self)
    }

    /// Flushes the file or folder at `path` to stable storage.
    static func fsync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError(operation: "open \(path)", code: errno) }
        defer { Glibc.close(descriptor) }
        guard Glibc.fsync(descriptor) == 0 else { throw SystemError(operation: "fsync \(path)", code: errno) }
    }

    /// The folder holding `path` (`.` for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
