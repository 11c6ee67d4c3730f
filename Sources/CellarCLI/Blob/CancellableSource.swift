import CellarKit
import Glibc

/// Reads a descriptor that may block for long (a pipe, a terminal, a FIFO), waking every 100 ms to
/// see whether a stop was asked for: SIGINT and SIGTERM are taken by a watching thread, so they never
/// interrupt the `read` itself, and a stalled producer must not keep cellar from stopping.
final class CancellableSource: ByteSource {
    private let descriptor: Int32
    private let cancellation: CancellationFlag?

    init(descriptor: Int32, cancellation: CancellationFlag?) {
        self.descriptor = descriptor
        self.cancellation = cancellation
    }

    /// Waits for input (or a stop), then reads it.
    ///
    /// - Throws: ``CommandFailure`` ("interrupted") once the flag is set, ``SystemError`` on a failed call.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            if cancellation?.isCancelled == true { throw CommandFailure(message: "interrupted") }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 100)
            if ready < 0, errno != EINTR { throw SystemError(operation: "poll", code: errno) }
            if ready > 0 { return try FileDescriptorSource(descriptor: descriptor).read(into: buffer) }
        }
    }
}
