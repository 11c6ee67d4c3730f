import BenchmarkReport
import CellarKit
import Glibc

/// Where the benchmarks run: the binaries compared and a scratch folder for their fixtures.
struct BenchmarkContext {
    /// The static release `cellar` measured (see `measuredCellar`).
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

    /// Writes back every dirty page on the machine (`sync(2)`), from a reset before a measured run: a
    /// run that writes or syncs files then pays neither for an earlier run's or row's writeback (the
    /// files it deleted, the gigabyte it left in the page cache) nor for the other side's.
    static func settleWriteback() {
        Glibc.sync()
    }

    /// Why cellar-bench has no `cellar` to measure.
    struct Refusal: Error {
        let message: String
    }

    /// The static release `cellar` to measure: the one beside this executable when it is static and no file
    /// under the package's `Sources` (or its `Package.swift`) is newer (the `cellar` target is built with
    /// cellar-bench), else the one `scripts/build-release --scratch-path <package>/.build/bench-static` builds
    /// now, incrementally, from the package's current sources. The script's build output goes to standard
    /// error.
    static func measuredCellar(scratch: String) -> Result<String, Refusal> {
        let folder = executableFolder()
        let beside = folder + "/cellar"
        let root = MeasuredBinary.packageRoot(above: folder) { access($0, F_OK) == 0 }
        let built = modificationTime(beside) ?? 0
        let newestSource = root.map {
            max(newestModification(under: $0 + "/Sources"), modificationTime($0 + "/Package.swift") ?? 0)
        }
        let choice = MeasuredBinary.choose(
            besidePath: beside, besideIsStatic: ExecutableLinkage.isStatic(beside),
            sourcesAreNewer: (newestSource ?? 0) > built, packageRoot: root)
        switch choice {
        case .beside(let path): return .success(path)
        case .refuse(let message): return .failure(Refusal(message: message))
        case .buildStatic(_, let command, let reason):
            let output = scratch + "/build-release.out"
            print("cellar-bench: \(reason); building the static one: \(RunHeader.shellQuoted(command))")
            fflush(nil)  // every stream, so this line comes before the build's
            let status = system("\(RunHeader.shellQuoted(command)) >\(RunHeader.shellQuoted([output]))")
            let printed = (try? FileContents.read(output)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            guard status == 0, let path = printed.split(separator: "\n").last.map(String.init) else {
                return .failure(Refusal(message: "\(command[0]) failed (status \(status)); nothing measured"))
            }
            guard ExecutableLinkage.isStatic(path) == true else {
                return .failure(Refusal(message: "\(path), which \(command[0]) built, is not static; nothing measured"))
            }
            return .success(path)
        }
    }

    /// The modification time of `path` in nanoseconds since the epoch, following links; nil when it is missing.
    static func modificationTime(_ path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mtim.tv_sec * 1_000_000_000 + status.st_mtim.tv_nsec
    }

    /// The latest modification time of `folder` and the files and folders under it (0 when it is missing).
    static func newestModification(under folder: String) -> Int {
        var newest = modificationTime(folder) ?? 0
        guard let handle = opendir(folder) else { return newest }
        defer { closedir(handle) }
        while let item = readdir(handle) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let path = folder + "/" + name
            newest = max(newest, item.pointee.d_type == DT_DIR ? newestModification(under: path) : modificationTime(path) ?? 0)
        }
        return newest
    }
}
