import CellarKit
import Glibc

/// `cellar wait`: waits until the database can be opened and read, for containers that start before
/// their volume (dbmate's `wait`).
enum WaitCommand: Command {
    static let timeout = OptionSpec(
        "timeout", value: "duration", help: "Give up after this long: 30, 30s, 500ms, 2m (default 60s).")

    static let spec = CommandSpec(
        name: "wait",
        abstract: "Wait until the database can be opened and read.",
        options: [timeout],
        discussion: """
            It tries every 100 ms. A missing file, a file that is not (yet) a database and a locked one are
            all waited for; the last reason is reported when the time is up (exit 1).
            """,
        examples: [
            .init(
                "cellar wait -d /data/app.sqlite --timeout 30s && cellar setup -d /data/app.sqlite",
                "In a container: wait for the volume's database, then set it up.")
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let timeout = try milliseconds(invocation.arguments.value(of: Self.timeout) ?? "60s")
        let configuration = invocation.configuration
        let deadline = Int(WallClock.milliseconds()) + timeout
        var hasAnnounced = false
        while true {
            let reason: String
            do {
                _ = try attempt(configuration, within: max(0, deadline - Int(WallClock.milliseconds())))
                if hasAnnounced, !configuration.isQuiet { invocation.io.printError("cellar: database is ready") }
                return .success
            } catch let failure as CommandFailure {
                reason = failure.message
            }
            let now = Int(WallClock.milliseconds())
            guard now < deadline else {
                throw CommandFailure(message: "gave up waiting after \(format(timeout)): \(reason)")
            }
            if !hasAnnounced, !configuration.isQuiet {
                invocation.io.printError(
                    "cellar: waiting for database '\(ControlCharacterEscaping.escape(configuration.databasePath))'…")
                hasAnnounced = true
            }
            usleep(useconds_t(min(100, deadline - now) * 1000))
        }
    }

    /// Opens and reads the database once, waiting for its lock no longer than `remaining` milliseconds.
    private static func attempt(_ configuration: Configuration, within remaining: Int) throws -> Database {
        var configuration = configuration
        configuration.busyTimeout = Int32(min(Int(configuration.busyTimeout), remaining))
        return try DatabaseOpener(configuration).openExisting(defensive: true)
    }

    /// `30`, `30s`, `500ms`, `2m` in milliseconds.
    static func milliseconds(_ text: String) throws(UsageError) -> Int {
        let units: [(String, Int)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("", 1000)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            if let value = Double(text.dropLast(suffix.count)), value >= 0, value * Double(scale) < Double(Int32.max) {
                return Int(value * Double(scale))
            }
        }
        throw UsageError("option '--timeout' expects a duration such as 30s, 500ms or 2m, not '\(text)'", command: spec.name)
    }

    private static func format(_ milliseconds: Int) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
