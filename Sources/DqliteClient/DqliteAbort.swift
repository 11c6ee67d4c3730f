import Glibc
import Synchronization

/// Stops a connection's request under way from another thread (a signal watcher): the socket is shut
/// down, so the request waiting for its reply fails at once as a lost connection, and the leader,
/// seeing the connection gone, rolls back the transaction that was open on it. A dqlite server reads no
/// other request while it runs a statement or sends rows, so this is the one bounded way to stop one.
public final class DqliteAbort: Sendable {
    private let descriptor = Mutex<Int32>(-1)

    init() {}

    /// Shuts down the connection's socket, if it has one now.
    public func abort() {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    func attach(_ socket: Int32) {
        descriptor.withLock { $0 = socket }
    }

    func detach() {
        descriptor.withLock { $0 = -1 }
    }
}
