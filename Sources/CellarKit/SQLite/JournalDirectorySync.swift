internal import CSQLite
import Glibc
import Synchronization

/// Spares the directory sync that SQLite's unix VFS makes each time it reopens a journal whose directory
/// entry this process has already made durable, and makes every other one as before.
///
/// SQLite syncs a journal's directory after the journal's first sync whenever it opened the journal
/// with `SQLITE_OPEN_CREATE`, so that a power loss cannot lose the entry of a journal that a rollback
/// needs (<https://sqlite.org/atomiccommit.html#_hot_rollback_journals>). Outside exclusive locking mode
/// its pager closes the journal at the end of every transaction and opens it that way again at the next,
/// so in `PERSIST` mode (``PersistentJournal``) the directory is synced at every commit although the
/// file never went away: one sync in five of a small migration's commit.
///
/// The unix VFS lets a program replace the system calls it makes (`xSetSystemCall`, "openDirectory"
/// and "unlink" among them; <https://sqlite.org/c3ref/vfs.html>), and it takes `SQLITE_CANTOPEN` from
/// "openDirectory" as "no directory to sync". The replacement opens the file itself, syncs the
/// directory as SQLite would (`fdatasync`, as SQLite's `full_fsync` does on Linux), and checks that the
/// path still names the file it opened: the entry is then durable, and the file is remembered with that
/// descriptor held open. A later call for the same path is skipped only while the path still names that
/// very file (`lstat` against the held descriptor's device and inode). Holding the descriptor keeps the
/// inode allocated, so a journal deleted (by any process) and created again always gets another inode
/// number and is synced again; an "unlink" through SQLite forgets the path at once (releasing the old
/// file's space). What is assumed is what SQLite's own hot-journal guarantee already assumes: nothing
/// renames a journal or links it under another name (<https://sqlite.org/howtocorrupt.html>).
///
/// The replacement is process state, so only the command line installs it (``install()``); an app that
/// links CellarKit keeps SQLite's calls as they are.
package enum JournalDirectorySync {
    private typealias OpenDirectory = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Int32>?) -> Int32
    private typealias Unlink = @convention(c) (UnsafePointer<CChar>?) -> Int32

    /// A file by its identity: the device and inode number a path resolved to.
    private struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64
    }

    /// A file whose directory entry a sync of this process made durable, and a descriptor on it that
    /// keeps its inode from being reused.
    private struct DurableFile {
        let descriptor: Int32
        let identity: FileIdentity
    }

    /// SQLite's own calls, read once before the replacements that call them are installed and never
    /// written again (under the one-time initialisation of ``isInstalled``).
    nonisolated(unsafe) private static var originalOpenDirectory: OpenDirectory?
    nonisolated(unsafe) private static var originalUnlink: Unlink?

    /// The most files remembered at once (each holds a descriptor); forgetting one costs one more sync.
    private static let capacity = 32

    private static let durable = Mutex<[String: DurableFile]>([:])

    /// Installs the replacements, once per process, before the first connection that uses them: a call
    /// running while they are installed uses SQLite's own, which is always sound. The journal's other
    /// spared calls (``JournalOwnership``) are installed with them.
    ///
    /// - Returns: whether they are in place (false when the default unix VFS does not offer them).
    @discardableResult
    package static func install() -> Bool {
        JournalOwnership.install()
        return isInstalled
    }

    private static let isInstalled: Bool = {
        // Finding a VFS starts SQLite, which accepts its log callback only before it starts.
        _ = SQLiteLog.isInstalled
        guard let vfs = sqlite3_vfs_find("unix"), vfs.pointee.iVersion >= 3,
            let setCall = vfs.pointee.xSetSystemCall, let getCall = vfs.pointee.xGetSystemCall,
            let openDirectory = getCall(vfs, "openDirectory"), let unlink = getCall(vfs, "unlink")
        else { return false }
        originalOpenDirectory = unsafeBitCast(openDirectory, to: OpenDirectory.self)
        originalUnlink = unsafeBitCast(unlink, to: Unlink.self)
        let unlinkHook: Unlink = { path in JournalDirectorySync.unlink(path) }
        let openDirectoryHook: OpenDirectory = { path, result in JournalDirectorySync.openDirectory(path, result) }
        // "unlink" first: remembering files without it would hold deleted journals' space, never lose a sync.
        guard setCall(vfs, "unlink", unsafeBitCast(unlinkHook, to: sqlite3_syscall_ptr.self)) == SQLITE_OK else {
            return false
        }
        return setCall(vfs, "openDirectory", unsafeBitCast(openDirectoryHook, to: sqlite3_syscall_ptr.self))
            == SQLITE_OK
    }()

    /// SQLite's "openDirectory" for `path` (a file whose directory it is about to sync): `SQLITE_CANTOPEN`
    /// when the directory needs no sync, or after syncing it here; otherwise SQLite's own result.
    private static func openDirectory(_ path: UnsafePointer<CChar>?, _ result: UnsafeMutablePointer<Int32>?) -> Int32 {
        guard let original = originalOpenDirectory else { return SQLITE_CANTOPEN }
        guard let path, let result else { return original(path, result) }
        let name = String(cString: path)
        if isDurable(name, path) {
            count(name, skipped: true)
            result.pointee = -1
            return SQLITE_CANTOPEN
        }
        count(name, skipped: false)
        let file = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard file >= 0 else { return original(path, result) }
        guard let identity = identity(ofDescriptor: file) else {
            close(file)
            return original(path, result)
        }
        let code = original(path, result)
        // A directory that cannot be opened or synced is left to SQLite, which meets the same failure.
        guard code == SQLITE_OK, result.pointee >= 0, fdatasync(result.pointee) == 0 else {
            close(file)
            return code
        }
        close(result.pointee)
        result.pointee = -1
        // The path named the file before the sync and still does after it, so the entry the sync made
        // durable is this file's (its inode stays allocated while `file` is open).
        if identity == self.identity(ofPath: path) {
            remember(name, DurableFile(descriptor: file, identity: identity))
        } else {
            close(file)
        }
        return SQLITE_CANTOPEN
    }

    /// SQLite's "unlink": the file is forgotten whatever the outcome, and `errno` kept for SQLite.
    private static func unlink(_ path: UnsafePointer<CChar>?) -> Int32 {
        guard let original = originalUnlink else { return -1 }
        let code = original(path)
        let error = errno
        if let path { forget(String(cString: path)) }
        errno = error
        return code
    }

    /// Whether `name` is remembered and still names the remembered file. The check holds the lock, so
    /// that the descriptor keeping the inode allocated cannot be closed while it runs.
    private static func isDurable(_ name: String, _ path: UnsafePointer<CChar>) -> Bool {
        durable.withLock { files in
            guard let file = files[name] else { return false }
            return identity(ofPath: path) == file.identity
        }
    }

    private static func remember(_ name: String, _ file: DurableFile) {
        let released = durable.withLock { files -> [Int32] in
            var released: [Int32] = []
            if let old = files.removeValue(forKey: name) { released.append(old.descriptor) }
            if files.count >= capacity, let some = files.first {
                files.removeValue(forKey: some.key)
                released.append(some.value.descriptor)
            }
            files[name] = file
            return released
        }
        for descriptor in released { close(descriptor) }
    }

    private static func forget(_ name: String) {
        if let file = durable.withLock({ $0.removeValue(forKey: name) }) { close(file.descriptor) }
    }

    private static func identity(ofDescriptor descriptor: Int32) -> FileIdentity? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    private static func identity(ofPath path: UnsafePointer<CChar>) -> FileIdentity? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    // MARK: - Counts for tests

    /// How many directory syncs SQLite asked for, per file: made (here or by SQLite) and skipped.
    package struct Counts: Equatable, Sendable {
        package var synced = 0
        package var skipped = 0

        package init(synced: Int = 0, skipped: Int = 0) {
            self.synced = synced
            self.skipped = skipped
        }
    }

    #if DEBUG
        private static let counts = Mutex<[String: Counts]>([:])
    #endif

    private static func count(_ name: String, skipped: Bool) {
        #if DEBUG
            counts.withLock { all in
                if skipped { all[name, default: Counts()].skipped += 1 } else { all[name, default: Counts()].synced += 1 }
            }
        #endif
    }

    /// The directory syncs asked for after syncing the file at `path` since the process started (debug
    /// builds; release builds count nothing and return zeros).
    package static func counts(of path: String) -> Counts {
        #if DEBUG
            return counts.withLock { $0[path] } ?? Counts()
        #else
            return Counts()
        #endif
    }
}
