import Glibc
import TestSupport

/// The real `cellar` binary in a pseudo-terminal: a tmux server of its own (`tmux -L <unique>`),
/// driven with `send-keys` and read with `capture-pane`. Every wait is bounded.
final class TerminalSession {
    /// Why a wait ended without what it waited for.
    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    /// The folder the shell runs in; HOME and CELLAR_HISTORY point into it.
    let folder: TemporaryDirectory
    private let socket: String
    private static let tmux = "/usr/bin/tmux"

    /// Starts `cellar arguments…` in `folder` on a terminal of `columns` × `rows`; when it ends, the
    /// pane shows `[exit N]`. With `standardOutput`, its output goes into that file of `folder`
    /// instead (standard error stays on the terminal).
    init(
        _ arguments: [String], in folder: TemporaryDirectory, environment: [String: String] = [:], columns: Int = 160,
        rows: Int = 60, standardOutput: String? = nil
    ) throws {
        self.folder = folder
        socket = "cellar-" + String(folder.path.split(separator: "-").last ?? "x") + "-\(getpid())"
        var variables = [
            "HOME": folder.path, "CELLAR_HISTORY": folder.file("history"), "TERM": "xterm", "LANG": "C.UTF-8",
            "PATH": "/usr/bin:/bin", "NO_COLOR": "1",
        ]
        variables.merge(environment) { $1 }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }
        let command =
            "cd \(Self.quoted(folder.path)) && env -i \(assignments.joined(separator: " ")) "
            + ([Cellar.executablePath] + arguments).map(Self.quoted).joined(separator: " ")
            + (standardOutput.map { " > " + Self.quoted($0) } ?? "")
            + "; echo \"[exit $?]\"; sleep 600"
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", command])
    }

    deinit {
        kill()
    }

    /// Ends the terminal and everything in it at once (the shell gets SIGHUP, no chance to tidy up).
    func kill() {
        _ = try? Shell.run(Self.tmux, ["-L", socket, "kill-server"], environment: Self.tmuxEnvironment, timeout: 10)
    }

    /// Types `text` literally (no key names), then presses Enter if asked.
    func type(_ text: String, enter: Bool = true) throws {
        try tmux(["send-keys", "-l", Self.escapedSemicolon(text)])
        if enter { try press("Enter") }
    }

    /// Presses keys by tmux name: `Enter`, `Tab`, `C-c`, `C-d`, `Left`.
    func press(_ keys: String...) throws {
        try tmux(["send-keys"] + keys)
    }

    /// What the pane shows, trailing blank lines removed; with `escapes`, with the colour and
    /// attribute codes of what it shows (`capture-pane -e`).
    func screen(escapes: Bool = false) throws -> String {
        let result = try Shell.run(
            Self.tmux, ["-L", socket, "capture-pane", "-p", "-J"] + (escapes ? ["-e"] : []),
            environment: Self.tmuxEnvironment, timeout: 10)
        return result.output.trimmingTrailingNewlines()
    }

    /// Waits until `condition` holds for the screen (at most `timeout` seconds), and returns it.
    @discardableResult
    func waitUntil(timeout: Double = 60, _ what: String, _ condition: (String) -> Bool) throws -> String {
        var text = ""
        do {
            try Poll.until(what, timeout: timeout, every: 0.05) {
                text = try screen()
                return condition(text)
            }
        } catch let failure as Poll.Timeout {
            throw Poll.Timeout(description: "\(failure); the screen shows:\n\(text)")
        }
        return text
    }

    /// Waits until the screen shows `text` at least `count` times.
    @discardableResult
    func waitFor(_ text: String, count: Int = 1, timeout: Double = 60) throws -> String {
        try waitUntil(timeout: timeout, "\(count)× \(text)") { $0.occurrences(of: text) >= count }
    }

    /// This process's environment without `TMUX`, which would make tmux refuse to nest a session when
    /// the tests themselves run inside tmux.
    private static var tmuxEnvironment: [String: String] {
        ChildProcess.currentEnvironment.filter { $0.key != "TMUX" && $0.key != "TMUX_PANE" }
    }

    private func tmux(_ arguments: [String]) throws {
        let result = try Shell.run(Self.tmux, ["-L", socket] + arguments, environment: Self.tmuxEnvironment, timeout: 10)
        guard result.status == 0 else { throw Timeout(description: "tmux \(arguments) failed: \(result)") }
    }

    /// tmux takes an argument ending in `;` for a command separator unless the `;` is escaped.
    private static func escapedSemicolon(_ text: String) -> String {
        text.hasSuffix(";") ? String(text.dropLast()) + "\\;" : text
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

extension String {
    /// How many times `text` occurs, without overlaps.
    func occurrences(of text: String) -> Int {
        split(separator: text, omittingEmptySubsequences: false).count - 1
    }

    func trimmingTrailingNewlines() -> String {
        var result = Substring(self)
        while result.last == "\n" || result.last == " " { result = result.dropLast() }
        return String(result)
    }
}
