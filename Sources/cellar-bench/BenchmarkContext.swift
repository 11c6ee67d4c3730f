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

    /// Why cellar-bench has no `cellar` to measure.
    struct Refusal: Error {
        let message: String
    }

    /// The static release `cellar` to measure: the one beside this executable when it is static (the
    /// `cellar` target is built with cellar-bench, so it is never older than the bench), else the one
    /// `scripts/build-release --scratch-path <package>/.build/bench-static` builds now, incrementally, from
    /// the package's current sources. The script's output goes to this bench's standard error.
    static func measuredCellar(scratch: String) -> Result<String, Refusal> {
        let folder = executableFolder()
        let beside = folder + "/cellar"
        let choice = MeasuredBinary.choose(
            besidePath: beside, besideIsStatic: ExecutableLinkage.isStatic(beside),
            packageRoot: MeasuredBinary.packageRoot(above: folder) { access($0, F_OK) == 0 })
        switch choice {
        case .beside(let path): return .success(path)
        case .refuse(let message): return .failure(Refusal(message: message))
        case .buildStatic(_, let command):
            let output = scratch + "/build-release.out"
            print("cellar-bench: \(beside) is not the static release build; building it: \(RunHeader.shellQuoted(command))")
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
}
