internal import CSQLite
import Glibc
import Synchronization

extension Database {
    /// Writes a consistent copy of this database to a new file at `path` with the online backup API
    /// (<https://sqlite.org/backup.html>), durably: the copy is written beside its final name, fsynced,
    /// linked into place (never replacing a file that appeared meanwhile) and its folder fsynced, so a
    /// crash leaves either no backup or a whole one.
    ///
    /// The file being written has `permissions` from its creation on, before SQLite opens it: a copy of
    /// a private database is never readable by others, not even half written, and SQLite gives the
    /// copy's journal the same mode. Its name is unique to the call, so threads of one process backing
    /// up at once never share one.
    ///
    /// ```swift
    /// try db.backup(toFile: "app.sqlite.20261130120000.v7.bak", permissions: 0o600)
    /// ```
    /// - Parameter permissions: the copy's mode bits (`st_mode & 0o7777`); nil gives a new file's
    ///   default (`0o666` less the umask).
    /// - Throws: ``SystemError`` when `path` exists (`EEXIST`) or a file operation fails,
    ///   ``SQLiteError`` from the copy.
    public func backup(toFile path: String, permissions: UInt32? = nil) throws {
        guard access(path, F_OK) != 0 else { throw SystemError(operation: "create \(path)", code: EEXIST) }
        let temporary = try Self.createPartialFile(beside: path, permissions: permissions)
        do {
            // The copy is made with SQLite's own file locking, so the temporary is a normal database.
            let copy = try Database(path: temporary, options: Options(mode: .readWrite))
            try backup(to: copy)
            try copy.close()
            try Self.fsync(temporary)
            try Self.publish(temporary, as: path)
        } catch {
            unlink(temporary)
            unlink(temporary + "-journal")
            throw error
        }
        try Self.fsync(Self.folder(of: path))
    }

    /// Numbers the partial files of this process, so that two backups running at once never share one.
    private static let partialFileCount = Atomic<Int>(0)

    /// Creates `<path>.partial-<pid>-<n>`, empty, with `permissions` (exactly, whatever the umask),
    /// exclusively: a name another thread, process or a crashed run holds is skipped.
    private static func createPartialFile(beside path: String, permissions: UInt32?) throws -> String {
        let mask = umask(0)
        umask(mask)
        let mode = permissions.map { mode_t($0) } ?? (0o666 & ~mask)
        while true {
            let number = partialFileCount.add(1, ordering: .relaxed).newValue
            let temporary = "\(path).partial-\(getpid())-\(number)"
            // 0600 until fchmod gives the final mode: never more open than the owner's while it changes.
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor < 0, errno == EEXIST { continue }
            guard descriptor >= 0 else { throw SystemError(operation: "create \(temporary)", code: errno) }
            defer { Glibc.close(descriptor) }
            guard fchmod(descriptor, mode) == 0 else {
                let code = errno
                unlink(temporary)
                throw SystemError(operation: "chmod \(temporary)", code: code)
            }
            return temporary
        }
    }

    /// Gives the finished `temporary` its name `path` without replacing a file there: a hard link,
    /// then the temporary name removed; a rename where the file system has no hard links.
    private static func publish(_ temporary: String, as path: String) throws {
        if link(temporary, path) == 0 {
            unlink(temporary)
            return
        }
        let code = errno
        guard code != EEXIST, access(path, F_OK) != 0 else { throw SystemError(operation: "create \(path)", code: EEXIST) }
        guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP || code == EXDEV else {
            throw SystemError(operation: "create \(path)", code: code)
        }
        guard rename(temporary, path) == 0 else { throw SystemError(operation: "rename \(temporary)", code: errno) }
    }

    /// Replaces this database's content with the database at `source`, with the online backup API:
    /// the copy holds this database's write lock from start to end (waiting for it up to the busy
    /// timeout), so other connections see the old database or the new one, never a mix. It copies
    /// ``restorePagesPerStep`` pages at a time and checks ``cancellation`` between steps: a stop rolls
    /// the copy back, leaving this database as it was.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_BUSY`) when another connection keeps the lock,
    ///   (`SQLITE_INTERRUPT`) when ``cancellation`` stopped it; this database is then unchanged.
    ///
    /// - Parameter progress: told after each step the pages copied so far and the source's page count.
    public func restore(from source: Database, progress: ((_ copied: Int, _ total: Int) -> Void)? = nil) throws {
        let targetHandle = try openHandle()
        guard let backup = sqlite3_backup_init(targetHandle, "main", try source.openHandle(), "main") else {
            throw SQLiteError.read(from: targetHandle, code: sqlite3_errcode(targetHandle))
        }
        var stepCode = SQLITE_OK
        while stepCode == SQLITE_OK {
            if cancellation?.isCancelled == true {
                // Finishing an unfinished backup rolls back its write transaction on this database.
                sqlite3_backup_finish(backup)
                throw SQLiteError(code: SQLITE_INTERRUPT, message: "interrupted")
            }
            stepCode = sqlite3_backup_step(backup, Self.restorePagesPerStep)
            if let progress, stepCode == SQLITE_OK || stepCode == SQLITE_DONE {
                let total = Int(sqlite3_backup_pagecount(backup))
                progress(total - Int(sqlite3_backup_remaining(backup)), total)
            }
        }
        let finishCode = sqlite3_backup_finish(backup)
        guard stepCode == SQLITE_DONE, finishCode == SQLITE_OK else {
            throw SQLiteError.read(from: targetHandle, code: finishCode == SQLITE_OK ? stepCode : finishCode)
        }
    }

    /// Pages a restore copies between two looks at ``cancellation`` (4 MiB of 4 KiB pages).
    package static let restorePagesPerStep: Int32 = 1024

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
