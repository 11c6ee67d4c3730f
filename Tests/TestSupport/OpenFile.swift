import CellarKit
import Glibc

/// A file opened for reading or writing, usable as a byte source or sink; closed when released.
public final class OpenFile: ByteSource, ByteSink {
    /// The open descriptor.
    public let descriptor: Int32

    /// Opens `path` for reading, or creates (truncates) it for writing.
    public init(_ path: String, writing: Bool = false) throws {
        descriptor = writing ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileBytes.Failure(description: "cannot open \(path): errno \(errno)") }
    }

    deinit {
        close(descriptor)
    }

    /// Reads with `read(2)`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try FileDescriptorSource(descriptor: descriptor).read(into: buffer)
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            guard written > 0 else { throw FileBytes.Failure(description: "write failed: errno \(errno)") }
            offset += written
        }
    }
}
