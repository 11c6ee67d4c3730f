internal import CSQLite
import Glibc

/// Keeps the kernel writing a file back while a program writes it from start to end, so that the sync
/// that makes the file durable at the end waits only for its last stretch instead of all of it at once.
///
/// Every time another whole `stretch` of bytes has been written, the writeback of that stretch starts
/// (`sync_file_range` with `SYNC_FILE_RANGE_WRITE`, which does not wait), and the stretch before it is
/// waited for (`SYNC_FILE_RANGE_WAIT_BEFORE | WRITE | WAIT_AFTER`): the disk always has one stretch to
/// write while the next is being filled, and the file never holds more than about two stretches of
/// dirty pages, so it neither waits behind its own gigabyte at the end nor leaves the page cache full
/// of it for whatever runs next (<https://man7.org/linux/man-pages/man2/sync_file_range.2.html>).
///
/// This only starts early what the kernel would write anyway: durability still comes from the final
/// `fsync`, which the caller makes as before. A failed wait is a write error, though: Linux reports a
/// writeback error once per descriptor, so the wait that saw it has taken it from the final sync.
package struct WritebackPacer {
    /// What the pacer asks of the file.
    package enum Step: Equatable, Sendable {
        /// Start the writeback of `count` bytes at `offset`, without waiting.
        case start(offset: Int, count: Int)
        /// Wait until the `count` bytes at `offset` are written back.
        case finish(offset: Int, count: Int)
    }

    /// The stretch written between two steps (8 MiB): large enough for a handful of system calls per
    /// 64 MiB, small enough that the last one is over in a few milliseconds.
    package static let defaultStretch = 8 << 20

    /// The bytes between two starts.
    package let stretch: Int
    /// How many bytes from the start of the file have had their writeback started.
    package private(set) var started = 0

    /// A pacer for a file written from offset 0 on.
    package init(stretch: Int = WritebackPacer.defaultStretch) {
        precondition(stretch > 0, "a pacer's stretch is at least one byte")
        self.stretch = stretch
    }

    /// The steps due now that the first `written` bytes of the file are written, each passed to `body`
    /// in order: for every whole stretch not started yet, its start, then the finish of the one before.
    package mutating func advance(to written: Int, _ body: (Step) throws -> Void) rethrows {
        while written - started >= stretch {
            try body(.start(offset: started, count: stretch))
            if started >= stretch { try body(.finish(offset: started - stretch, count: stretch)) }
            started += stretch
        }
    }

    /// One step's system call on the file open on a descriptor: 0 when it succeeded, else its `errno`.
    package typealias SystemCall = @Sendable (_ descriptor: Int32, _ step: Step) -> Int32

    /// The steps' system calls: `sync_file_range` with the flags each step needs.
    package static let systemCall: SystemCall = { descriptor, step in
        let code: Int32
        switch step {
        case .start(let offset, let count): code = cellar_start_writeback(descriptor, Int64(offset), Int64(count))
        case .finish(let offset, let count): code = cellar_finish_writeback(descriptor, Int64(offset), Int64(count))
        }
        return code == 0 ? 0 : errno
    }

    /// Advances for the file open on `descriptor`, making the steps' system calls through `call`.
    ///
    /// - Returns: false when the file cannot be paced (a file system or kernel without
    ///   `sync_file_range`): the caller stops pacing and its final sync does all the work, as before.
    /// - Throws: ``SystemError`` when waiting for the writeback meets a write error.
    package mutating func advance(
        descriptor: Int32, to written: Int, calling call: SystemCall = WritebackPacer.systemCall
    ) throws -> Bool {
        var isSupported = true
        try advance(to: written) { step in
            guard isSupported else { return }
            let error = call(descriptor, step)
            guard error != 0 else { return }
            guard error != ENOSYS, error != EINVAL, error != ESPIPE, error != EOPNOTSUPP else {
                isSupported = false
                return
            }
            throw SystemError(operation: "sync_file_range", code: error)
        }
        return isSupported
    }
}
