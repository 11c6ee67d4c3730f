internal import CSQLite
import Glibc
import Synchronization

/// Spares the two system calls SQLite's unix VFS makes, each time it opens a rollback journal, to give
/// the journal its database's owner when the journal has that owner already, and makes every other one.
///
/// Each time SQLite opens a journal (or a WAL or shared-memory file) it asks for the process's
/// effective user and, when that is root, calls `fchown` with the database file's owner and group,
/// whether or not the file has them (<https://sqlite.org/src/file?name=src/os_unix.c>, `robustFchown`).
/// Outside exclusive locking mode the pager opens the journal at every transaction, and a kept journal
/// (``PersistentJournal``) twice (once to see whether it is hot): four calls per migration, which
/// change nothing once the journal belongs to the database's owner.
///
/// The unix VFS lets a program replace those calls (`xSetSystemCall`, "geteuid" and "fchown";
/// <https://sqlite.org/c3ref/vfs.html>). The effective user is read once: cellar never changes it. Just
/// before it calls "fchown", SQLite has opened the file ("open") and read its status ("fstat") on the
/// same thread, so the replacements remember, per thread, the status of the descriptor last read
/// since the last open; "fchown" is skipped only when it names that very descriptor and the owner
/// and group it sets are those the file has, with no set-user-ID or set-group-ID bit that a change of
/// owner would clear. Any other call (another descriptor, no status read since the open, another
/// owner) is SQLite's own.
///
/// The replacements are process state, so only the command line installs them (through
/// ``JournalDirectorySync/install()``); an app that links CellarKit keeps SQLite's calls as they are.
package enum JournalOwnership {
    private typealias Open = @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> Int32
    private typealias FileStatus = @convention(c) (Int32, UnsafeMutablePointer<stat>?) -> Int32
    private typealias ChangeOwner = @convention(c) (Int32, uid_t, gid_t) -> Int32
    private typealias EffectiveUser = @convention(c) () -> uid_t

    /// The status a thread's last "fstat" since its last "open" read: which descriptor, and its owner.
    private struct LastStatus {
        var descriptor: Int32 = -1
        var owner: uid_t = 0
        var group: gid_t = 0
        var mode: mode_t = 0
    }

    /// SQLite's own calls, read once before the replacements that call them are installed and never
    /// changed after.
    nonisolated(unsafe) private static var originalOpen: Open?
    nonisolated(unsafe) private static var originalFileStatus: FileStatus?
    nonisolated(unsafe) private static var originalChangeOwner: ChangeOwner?
    /// The process's effective user, read when the replacements are installed.
    nonisolated(unsafe) private static var effectiveUser: uid_t = 0

    /// Where each thread keeps its ``LastStatus`` (allocated on its first "fstat", freed when it ends).
    private static let statusKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    /// Installs the replacements on SQLite's unix VFS (once per process); false when SQLite does not
    /// offer the calls, and then nothing is replaced.
    @discardableResult
    package static func install() -> Bool { isInstalled }

    private static let isInstalled: Bool = {
        // Finding a VFS starts SQLite, which accepts its log callback only before it starts.
        _ = SQLiteLog.isInstalled
        guard let vfs = sqlite3_vfs_find("unix"), vfs.pointee.iVersion >= 3,
            let setCall = vfs.pointee.xSetSystemCall, let getCall = vfs.pointee.xGetSystemCall,
            let open = getCall(vfs, "open"), let fileStatus = getCall(vfs, "fstat"),
            let changeOwner = getCall(vfs, "fchown"), getCall(vfs, "geteuid") != nil
        else { return false }
        originalOpen = unsafeBitCast(open, to: Open.self)
        originalFileStatus = unsafeBitCast(fileStatus, to: FileStatus.self)
        originalChangeOwner = unsafeBitCast(changeOwner, to: ChangeOwner.self)
        effectiveUser = geteuid()
        _ = statusKey
        let openHook: Open = { path, flags, mode in JournalOwnership.open(path, flags, mode) }
        let fileStatusHook: FileStatus = { descriptor, status in JournalOwnership.fileStatus(descriptor, status) }
        let changeOwnerHook: ChangeOwner = { descriptor, owner, group in
            JournalOwnership.changeOwner(descriptor, owner, group)
        }
        let effectiveUserHook: EffectiveUser = { JournalOwnership.effectiveUser }
        // "open" and "fstat" first: until "fchown" is replaced, what they remember is never used.
        for (name, hook) in [
            ("open", unsafeBitCast(openHook, to: sqlite3_syscall_ptr.self)),
            ("fstat", unsafeBitCast(fileStatusHook, to: sqlite3_syscall_ptr.self)),
            ("fchown", unsafeBitCast(changeOwnerHook, to: sqlite3_syscall_ptr.self)),
            ("geteuid", unsafeBitCast(effectiveUserHook, to: sqlite3_syscall_ptr.self)),
        ] {
            guard setCall(vfs, name, hook) == SQLITE_OK else { return false }
        }
        return true
    }()

    /// This thread's last status, if it read one since it last opened a file.
    private static var lastStatus: UnsafeMutablePointer<LastStatus>? {
        pthread_getspecific(statusKey)?.assumingMemoryBound(to: LastStatus.self)
    }

    /// SQLite's "open": forgets the thread's last status first (the new descriptor may reuse its number).
    private static func open(_ path: UnsafePointer<CChar>?, _ flags: Int32, _ mode: Int32) -> Int32 {
        lastStatus?.pointee.descriptor = -1
        guard let originalOpen else {
            errno = ENOSYS
            return -1
        }
        return originalOpen(path, flags, mode)
    }

    /// SQLite's "fstat": remembers what it read for this thread, and keeps `errno` for SQLite.
    private static func fileStatus(_ descriptor: Int32, _ status: UnsafeMutablePointer<stat>?) -> Int32 {
        guard let originalFileStatus else {
            errno = ENOSYS
            return -1
        }
        let code = originalFileStatus(descriptor, status)
        let error = errno
        var slot = lastStatus
        if slot == nil, let memory = malloc(MemoryLayout<LastStatus>.stride) {
            let fresh = memory.bindMemory(to: LastStatus.self, capacity: 1)
            fresh.initialize(to: LastStatus())
            pthread_setspecific(statusKey, memory)
            slot = fresh
        }
        if let slot {
            if code == 0, let status {
                slot.pointee = LastStatus(
                    descriptor: descriptor, owner: status.pointee.st_uid, group: status.pointee.st_gid,
                    mode: status.pointee.st_mode)
            } else {
                slot.pointee.descriptor = -1
            }
        }
        errno = error
        return code
    }

    /// SQLite's "fchown": skipped when the thread's last status shows `descriptor` with that owner and
    /// group already (and no set-ID bit a change of owner would clear); SQLite's own otherwise.
    private static func changeOwner(_ descriptor: Int32, _ owner: uid_t, _ group: gid_t) -> Int32 {
        if let slot = lastStatus {
            let last = slot.pointee
            slot.pointee.descriptor = -1
            if descriptor >= 0, last.descriptor == descriptor, last.owner == owner, last.group == group,
                last.mode & (S_ISUID | S_ISGID) == 0
            {
                count(skipped: true)
                return 0
            }
        }
        count(skipped: false)
        guard let originalChangeOwner else {
            errno = ENOSYS
            return -1
        }
        return originalChangeOwner(descriptor, owner, group)
    }

    // MARK: - Counts for tests

    /// How many times SQLite asked to give a file its database's owner: made and skipped.
    package struct Counts: Equatable, Sendable {
        package var changed = 0
        package var skipped = 0

        package init(changed: Int = 0, skipped: Int = 0) {
            self.changed = changed
            self.skipped = skipped
        }
    }

    #if DEBUG
        private static let tally = Mutex(Counts())
    #endif

    private static func count(skipped: Bool) {
        #if DEBUG
            tally.withLock { if skipped { $0.skipped += 1 } else { $0.changed += 1 } }
        #endif
    }

    /// The calls asked for since the process started (debug builds; release builds count nothing).
    package static var counts: Counts {
        #if DEBUG
            return tally.withLock { $0 }
        #else
            return Counts()
        #endif
    }
}
