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
