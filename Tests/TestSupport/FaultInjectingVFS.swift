import CSQLite
import Glibc

/// An SQLite VFS that wraps the default one and injects I/O faults according to a ``FaultPlan``:
/// failing the Nth write or sync, or losing power (dropping unsynced writes) at the Nth write.
///
/// Register it under a unique name, open a `Database` with `Options(vfsName:)`, run the work, close,
/// then reopen the file with the default VFS to check what survived.
///
/// ```swift
/// let vfs = try FaultInjectingVFS(plan: FaultPlan(.failWrite(3, code: 13)))
/// let db = try Database(path: file, options: .init(vfsName: vfs.name))
/// ```
public final class FaultInjectingVFS: @unchecked Sendable {
    // @unchecked: the registration is immutable; the plan is driven by one connection's thread.
    /// The name the VFS is registered under.
    public let name: String
    /// The plan, shared with every file opened through the VFS.
    public let plan: FaultPlan
    private let state: VFSState
    private let vfs: UnsafeMutablePointer<WrappedVFS>
    private let nameStorage: UnsafeMutablePointer<CChar>

    /// Registers a new VFS (not the default) wrapping SQLite's default VFS.
    public init(plan: FaultPlan) throws {
        guard let base = sqlite3_vfs_find(nil) else { throw FileBytes.Failure(description: "no default VFS") }
        self.plan = plan
        name = "fault-\(UInt64.random(in: 0...UInt64.max))"
        nameStorage = strdup(name)
        state = VFSState(plan: plan, base: base)
        vfs = UnsafeMutablePointer<WrappedVFS>.allocate(capacity: 1)
        var copy = base.pointee
        copy.zName = UnsafePointer(nameStorage)
        copy.pNext = nil
        copy.szOsFile = Int32(FileHeader.size) + base.pointee.szOsFile
        copy.xOpen = wrappedOpen
        vfs.initialize(to: WrappedVFS(vfs: copy, state: Unmanaged.passUnretained(state).toOpaque()))
        let code = vfs.withMemoryRebound(to: sqlite3_vfs.self, capacity: 1) { sqlite3_vfs_register($0, 0) }
        guard code == SQLITE_OK else { throw FileBytes.Failure(description: "sqlite3_vfs_register failed: \(code)") }
    }

    deinit {
        vfs.withMemoryRebound(to: sqlite3_vfs.self, capacity: 1) { _ = sqlite3_vfs_unregister($0) }
        vfs.deallocate()
        free(nameStorage)
    }
}

/// Extended I/O error codes: function-like macros in sqlite3.h, which Swift does not import
/// (<https://sqlite.org/rescode.html#extrc>).
enum IOErrorCode {
    static let shortRead = SQLITE_IOERR | (2 << 8)
    static let write = SQLITE_IOERR | (3 << 8)
    static let fsync = SQLITE_IOERR | (4 << 8)
    static let truncate = SQLITE_IOERR | (6 << 8)
}

/// The registered VFS struct followed by a pointer to its state, so callbacks can find the state.
struct WrappedVFS {
    var vfs: sqlite3_vfs
    var state: UnsafeMutableRawPointer
}

/// What the callbacks of one VFS share.
final class VFSState {
    let plan: FaultPlan
    let base: UnsafeMutablePointer<sqlite3_vfs>
    var openFiles: [ObjectIdentifier: FileRecord] = [:]

    init(plan: FaultPlan, base: UnsafeMutablePointer<sqlite3_vfs>) {
        self.plan = plan
        self.base = base
    }

    /// Called at every write: decides whether this write fails and fires power loss.
    func faultForWrite() -> Int32? {
        guard !plan.hasFired else { return IOErrorCode.write }
        plan.writes += 1
        switch plan.fault {
        case .failWrite(let number, let code) where plan.writes >= number:
            plan.hasFired = true
            return code
        case .powerLoss(let number) where plan.writes >= number:
            plan.hasFired = true
            for record in openFiles.values { record.pending.removeAll() }
            return IOErrorCode.write
        default:
            return nil
        }
    }

    /// Called at every sync: decides whether this sync fails.
    func faultForSync() -> Int32? {
        if plan.hasFired { return IOErrorCode.fsync }
        plan.syncs += 1
        if case .failSync(let number, let code) = plan.fault, plan.syncs >= number {
            plan.hasFired = true
            return code
        }
        return nil
    }
}

/// Unsynced writes of one open file (power-loss mode only).
final class FileRecord {
    var pending: [(offset: Int64, bytes: [UInt8])] = []
}

/// The layout of our `sqlite3_file`: SQLite's header, our state, our record, then the real file.
enum FileHeader {
    static let size = 3 * MemoryLayout<UnsafeRawPointer>.stride

    static func state(of file: UnsafeMutablePointer<sqlite3_file>?) -> VFSState {
        let raw = UnsafeMutableRawPointer(file!).load(
            fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeMutableRawPointer.self)
        return Unmanaged<VFSState>.fromOpaque(raw).takeUnretainedValue()
    }

    static func record(of file: UnsafeMutablePointer<sqlite3_file>?) -> FileRecord {
        let raw = UnsafeMutableRawPointer(file!).load(
            fromByteOffset: 2 * MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeMutableRawPointer.self)
        return Unmanaged<FileRecord>.fromOpaque(raw).takeUnretainedValue()
    }

    static func real(_ file: UnsafeMutablePointer<sqlite3_file>?) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file!) + size).assumingMemoryBound(to: sqlite3_file.self)
    }
}
