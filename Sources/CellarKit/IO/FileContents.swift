import Glibc

/// Whole-file reads and writes with plain system calls (no Foundation at start-up).
package enum FileContents {
    /// The bytes of the file at `path`.
    /// - Throws: ``SystemError`` when it cannot be opened or read.
    package static func read(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError(operation: "open \(path)", code: errno) }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG { result.reserveCapacity(Int(status.st_size)) }
        try readToEnd(descriptor, path: path, limit: .max, into: &result)
        return result
    }

    /// Why a bounded read refused a file.
    package enum ReadRefusal: Error {
        /// Not a regular file (a device such as `/dev/zero`, a FIFO, a folder): it may never end.
        case notRegularFile
        /// Larger than the limit, in bytes.
        case tooLarge(limit: Int)
    }

    /// The bytes of the regular file at `path`, at most `limit` of them.
    ///
    /// - Throws: ``ReadRefusal`` for anything but a regular file or a file over `limit` bytes (also
    ///   when it grows past it while read); ``SystemError`` when it cannot be opened or read.
    package static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw SystemError(operation: "open \(path)", code: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SystemError(operation: "stat \(path)", code: errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw ReadRefusal.notRegularFile }
        guard Int(status.st_size) <= limit else { throw ReadRefusal.tooLarge(limit: limit) }
        var result: [UInt8] = []
        result.reserveCapacity(Int(status.st_size))
        try readToEnd(descriptor, path: path, limit: limit, into: &result)
        return result
    }

    /// Appends what is left of `descriptor` to `result`, refusing to go past `limit` bytes in all.
    /// Reads in chunks of at most 64 KiB, or one byte more than the room `result` has reserved (a small
    /// file is then read in one call, without clearing a large buffer first).
    private static func readToEnd(_ descriptor: Int32, path: String, limit: Int, into result: inout [UInt8]) throws {
        let room = result.capacity - result.count
        var chunk = [UInt8](repeating: 0, count: room > 0 && room < 1 << 16 ? room + 1 : 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw SystemError(operation: "read \(path)", code: errno) }
            if count == 0 { return }
            guard count <= limit - result.count else { throw ReadRefusal.tooLarge(limit: limit) }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    /// Replaces the file at `path` with `bytes` (created with mode 0644 less the umask).
    /// - Throws: ``SystemError`` when it cannot be created or written.
    package static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SystemError(operation: "open \(path)", code: errno) }
        defer { close(descriptor) }
        try write(bytes, to: descriptor, operation: "write \(path)")
    }

    /// Writes all of `bytes` to the open `descriptor`, again after an interrupted call.
    /// - Throws: ``SystemError`` with `operation` when a write fails.
    package static func write(_ bytes: [UInt8], to descriptor: Int32, operation: @autoclosure () -> String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw SystemError(operation: operation(), code: errno) }
            offset += written
        }
    }
}
