import Glibc

/// Writes a large file through a buffer, without Foundation.
struct FileWriter {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw BenchmarkProcess.Failure(description: "cannot create \(path)") }
        buffer.reserveCapacity(1 << 20)
    }

    mutating func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    mutating func close() throws {
        try flush()
        Glibc.close(descriptor)
    }

    private mutating func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw BenchmarkProcess.Failure(description: "write failed: errno \(errno)") }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
