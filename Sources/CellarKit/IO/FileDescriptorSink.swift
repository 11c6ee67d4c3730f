import Glibc

/// Writes to a file descriptor, through a buffer that is flushed when it fills and on ``flush()``.
public final class FileDescriptorSink: ByteSink {
    /// The descriptor written to.
    public let descriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int

    /// Creates a sink writing `descriptor`; the caller keeps ownership of it.
    ///
    /// An unbuffered sink writes through at once (standard error, where progress must show now).
    public init(descriptor: Int32, isBuffered: Bool = true) {
        self.descriptor = descriptor
        self.capacity = isBuffered ? 1 << 16 : 0
    }

    /// A buffered sink on the process's standard output (descriptor 1): what an app uses to print a
    /// result with ``ResultRenderer``. Call ``flush()`` (or ``ResultRenderer/flush()``) when done.
    ///
    /// ```swift
    /// let renderer = ResultRenderer(sink: FileDescriptorSink.standardOutput(), options: RenderOptions(mode: .box))
    /// try renderer.render(try db.prepare("SELECT name FROM wineries"))
    /// try renderer.flush()
    /// ```
    public static func standardOutput() -> FileDescriptorSink {
        FileDescriptorSink(descriptor: STDOUT_FILENO)
    }

    /// An unbuffered sink on the process's standard error (descriptor 2), where progress must show at once.
    public static func standardError() -> FileDescriptorSink {
        FileDescriptorSink(descriptor: STDERR_FILENO, isBuffered: false)
    }

    deinit {
        try? flush()
    }

    /// Buffers `bytes`, writing through when they are large.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > capacity { try flush() }
        if bytes.count >= capacity || capacity == 0 {
            try writeAll(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Writes what is buffered.
    public func flush() throws {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try buffer.withUnsafeBytes { try writeAll($0) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError(operation: "write", code: errno)
            }
            offset += written
        }
    }
}
