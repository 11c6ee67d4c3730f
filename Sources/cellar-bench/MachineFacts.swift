import CellarKit
import Glibc

/// What the header above the table reports about the machine and the binaries measured.
enum MachineFacts {
    /// The 1, 5 and 15 minute load averages from `/proc/loadavg` ("unknown" if it cannot be read).
    static func loadAverage() -> String {
        guard let bytes = try? FileContents.read("/proc/loadavg") else { return "unknown" }
        return String(decoding: bytes, as: UTF8.self).split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// Online CPUs.
    static func cpuCount() -> Int {
        sysconf(Int32(_SC_NPROCESSORS_ONLN))
    }

    /// The first line `executable arguments…` prints, or nil when it prints nothing or fails.
    static func firstLine(of executable: String, _ arguments: [String], scratch: String) -> String? {
        let output = scratch + "/machine-facts.out"
        defer { unlink(output) }
        let command = BenchmarkCommand(executable: executable, arguments: arguments, outputPath: output)
        guard access(executable, X_OK) == 0, let run = try? BenchmarkProcess.measure(command), run.status == 0,
            let bytes = try? FileContents.read(output)
        else { return nil }
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init)
        return line.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The git revision of the package that built `folder`'s executables (`describe --always --dirty`),
    /// found by walking up from `folder` to the one holding `Package.swift`; nil outside a git checkout.
    static func sourceRevision(from folder: String, scratch: String) -> String? {
        var root = folder
        while access(root + "/Package.swift", F_OK) != 0 {
            guard let slash = root.lastIndex(of: "/"), slash != root.startIndex else { return nil }
            root = String(root[..<slash])
        }
        return firstLine(of: "/usr/bin/git", ["-C", root, "describe", "--always", "--dirty", "--abbrev=12"], scratch: scratch)
            .map { "\($0) (`git describe` in \(root) when the bench started)" }
    }
}
