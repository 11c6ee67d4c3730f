/// The lines cellar-bench prints above its table, so that a figure pasted into the manual carries what a
/// re-run needs: the command, when it ran, on what, and how loaded the machine was.
package struct RunHeader: Sendable {
    /// The load averages (`/proc/loadavg`: 1, 5 and 15 minutes) around one round.
    package struct RoundLoad: Sendable {
        package var before: String
        package var after: String

        package init(before: String, after: String) {
            self.before = before
            self.after = after
        }
    }

    /// The command line as typed (`CommandLine.arguments`).
    package var arguments: [String]
    /// UTC start and end, as `2026-12-02T03:16:30Z`.
    package var started: String
    package var ended: String
    /// What `cellar --version` printed (nil: it printed nothing).
    package var cellarVersion: String?
    /// The source tree's git revision (nil: not known).
    package var sourceRevision: String?
    /// Online CPUs.
    package var cpuCount: Int
    /// Busy loops spinning during the measurement.
    package var busyLoops: Int
    /// The load before and after each round.
    package var loads: [RoundLoad]

    package init(
        arguments: [String], started: String, ended: String, cellarVersion: String?, sourceRevision: String?,
        cpuCount: Int, busyLoops: Int, loads: [RoundLoad]
    ) {
        self.arguments = arguments
        self.started = started
        self.ended = ended
        self.cellarVersion = cellarVersion
        self.sourceRevision = sourceRevision
        self.cpuCount = cpuCount
        self.busyLoops = busyLoops
        self.loads = loads
    }

    /// A Markdown list, one fact per item.
    package var lines: [String] {
        var lines = [
            "- command: `\(Self.shellQuoted(arguments))`",
            "- started \(started), ended \(ended) (UTC)",
            "- cellar: \(cellarVersion ?? "(no version printed)"); source tree: \(sourceRevision ?? "unknown")",
            "- machine: \(cpuCount) CPU\(cpuCount == 1 ? "" : "s"); "
                + (busyLoops == 0
                    ? "no busy loops"
                    : "\(busyLoops) busy loop\(busyLoops == 1 ? "" : "s") (`/bin/sh` spinning) during the measurement"),
        ]
        for (index, load) in loads.enumerated() {
            lines.append("- load average (1, 5, 15 min), round \(index + 1): \(load.before) before, \(load.after) after")
        }
        return lines
    }

    /// `arguments` as a POSIX shell would read them back: words of safe characters as they are, anything
    /// else in single quotes (a quote inside written `'\''`).
    package static func shellQuoted(_ arguments: [String]) -> String {
        arguments.map { word in
            let safe = !word.isEmpty && word.utf8.allSatisfy { byte in Self.safeBytes.contains(byte) }
            return safe
                ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
        }
        .joined(separator: " ")
    }

    private static let safeBytes = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%".utf8)
}
