import CellarKit
import Glibc

/// A 3-node `dqlite-demo` cluster on fixed loopback ports for the dqlite rows, restartable fresh
/// (new data folders, same ports) between runs; every node is stopped by its process id.
final class BenchmarkCluster {
    static let demoPath = "/usr/bin/dqlite-demo"
    static let shellPath = "/usr/bin/dqlite"
    /// Whether go-dqlite's demo server and shell are installed.
    static var isAvailable: Bool { access(demoPath, X_OK) == 0 && access(shellPath, X_OK) == 0 }

    let folder: String
    let addresses: [String]
    private let apiAddresses: [String]
    private var pids: [pid_t] = []
    /// How many times the cluster was started fresh: a row that filled it knows whether it still holds its rows.
    private(set) var generation = 0

    init(folder: String, basePort: Int) {
        self.folder = folder
        addresses = (0..<3).map { "127.0.0.1:\(basePort + $0)" }
        apiAddresses = (0..<3).map { "127.0.0.1:\(basePort + 10 + $0)" }
    }

    /// `dqlite://…/NAME` for cellar.
    func url(_ name: String) -> String { "dqlite://\(addresses.joined(separator: ","))/\(name)" }

    /// Stops the nodes, wipes their data and starts them again, waiting (at most 60 s) for 3 voters.
    func restartFresh() throws {
        stop()
        generation += 1
        for index in 0..<3 {
            var arguments = [
                "--api", apiAddresses[index], "--db", addresses[index], "--dir", "\(folder)/g\(generation)-n\(index)",
            ]
            if index > 0 { arguments += ["--join", addresses[0]] }
            pids.append(try spawn(Self.demoPath, arguments))
            if index == 0 { try wait(for: 0) }
        }
        try wait(for: 3)
    }

    /// SIGKILLs every node and reaps it.
    func stop() {
        for pid in pids {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        pids = []
    }

    deinit { stop() }

    /// Waits until node 0 reports `voters` voters (0: until it answers at all).
    private func wait(for voters: Int) throws {
        let deadline = BenchmarkProcess.now() + 60
        while BenchmarkProcess.now() < deadline {
            let listing = output(of: "\(Self.shellPath) -s \(addresses[0]) demo .cluster 2>/dev/null")
            let count = listing.split(separator: "\n").filter { $0.hasSuffix("|voter") }.count
            if voters == 0 ? count > 0 : count == voters { return }
            usleep(100_000)
        }
        throw BenchmarkProcess.Failure(description: "the dqlite cluster did not come up within 60 s")
    }

    private func output(of command: String) -> String {
        guard let pipe = popen("timeout 5 " + command, "r") else { return "" }
        defer { pclose(pipe) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func spawn(_ executable: String, _ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard code == 0 else { throw BenchmarkProcess.Failure(description: "cannot start \(executable): errno \(code)") }
        return pid
    }
}
