import Glibc

/// Where the benchmarks run: the binaries compared and a scratch folder for their fixtures.
struct BenchmarkContext {
    /// The `cellar` built next to this `cellar-bench`.
    let cellarPath: String
    /// The sqlite3 CLI compared against.
    let sqlitePath: String
    /// A fresh folder for fixtures, removed at the end.
    let folder: String

    /// `folder/name`.
    func file(_ name: String) -> String { "\(folder)/\(name)" }

    /// The folder holding this executable, from `/proc/self/exe` (SwiftPM puts `cellar` beside it).
    static func executableFolder() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "." }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }

    /// Removes `path` if it exists (a database the next run must create afresh).
    static func remove(_ path: String) {
        unlink(path)
        unlink(path + "-journal")
        unlink(path + "-wal")
    }
}

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
