import CellarKit
import Glibc
import Synchronization

/// Turns Ctrl-C into `sqlite3_interrupt` while a statement runs, and into a wake-up of the prompt
/// otherwise, without running anything inside a signal handler.
///
/// SIGINT is blocked in the calling thread (and so in every thread started after it); a dedicated
/// thread waits for it with `sigwait`, interrupts the running statement if there is one, and writes a
/// byte to a pipe that the prompt polls.
final class InterruptWatcher: Sendable {
    /// The interrupter of the statement running now (none on a dqlite database), and the flag of work
    /// that checks one (`.blob`, a dqlite statement between its rows).
    private let running = Mutex<(Interrupter?, CancellationFlag?)?>(nil)
    /// Readable (non-blocking) when Ctrl-C was pressed; drained by ``drain()``.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// Blocks SIGINT in this thread and starts the watching thread.
    ///
    /// - Throws: ``SystemError`` when the pipe or the thread cannot be created.
    init() throws {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw SystemError(operation: "pipe", code: errno) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        var signals = Self.interruptSet()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let code = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<InterruptWatcher>.fromOpaque(context!).takeRetainedValue().watch()
                return nil
            }, context)
        guard code == 0 else {
            Unmanaged<InterruptWatcher>.fromOpaque(context).release()
            throw SystemError(operation: "pthread_create", code: code)
        }
        pthread_detach(thread)
    }

    /// Says that a statement of `interrupter`'s connection is running; Ctrl-C also sets `cancellation`.
    func beginStatement(_ interrupter: Interrupter?, cancellation: CancellationFlag? = nil) {
        running.withLock { $0 = (interrupter, cancellation) }
    }

    /// Says that no statement is running any more.
    func endStatement() {
        running.withLock { $0 = nil }
    }

    /// Forgets Ctrl-C presses seen so far; returns whether there were any.
    @discardableResult
    func drain() -> Bool {
        var byte: UInt8 = 0
        var sawAny = false
        while read(readDescriptor, &byte, 1) == 1 { sawAny = true }
        return sawAny
    }

    private func watch() {
        var signals = Self.interruptSet()
        while true {
            var received: Int32 = 0
            guard sigwait(&signals, &received) == 0, received == SIGINT else { continue }
            running.withLock { target in
                target?.1?.cancel()
                target?.0?.interrupt()
            }
            var byte: UInt8 = 1
            _ = write(writeDescriptor, &byte, 1)
        }
    }

    private static func interruptSet() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        return signals
    }
}
