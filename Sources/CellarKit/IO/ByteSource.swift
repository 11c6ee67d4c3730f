import Glibc

/// Somewhere input bytes come from: standard input, a file, or a buffer in a test.
public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes.
    ///
    /// - Returns: the number of bytes read; 0 at the end of input.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Reads from a file descriptor.
public final class FileDescriptorSource: ByteSource {
    /// The descriptor read from.
    public let descriptor: Int32

    /// Creates a source reading `descriptor`; the caller keeps ownership of it.
    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// Reads with `read(2)`, retrying when a signal interrupts the call.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw SystemError(operation: "read", code: errno) }
        }
    }
}

/// Reads from bytes in memory.
public final class BufferSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    /// Creates a source that yields `bytes` and then the end of input.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Creates a source that yields the UTF-8 bytes of `text`.
    public convenience init(_ text: String) { self.init(Array(text.utf8)) }

    /// Copies the next bytes into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - position)
        bytes[position..<position + count].withUnsafeBytes { buffer.copyMemory(from: $0) }
        position += count
        return count
    }
}
