import CellarKit
import Glibc

/// A real dqlite cluster on loopback for tests: `dqlite-demo` nodes (go-dqlite's demo server) on free
/// ports, each with its own data folder, joined into one cluster.
///
/// Every node is stopped by its process id when the cluster is released, whether the test passed or
/// failed; every wait is bounded.
public final class DqliteCluster: @unchecked Sendable {
    // @unchecked: a cluster is created and used by one test; the node table only changes through kill/restart.

    /// One node: its replication address (the one clients use) and its process.
    public struct Node: Sendable {
        /// `127.0.0.1:PORT`, the address dqlite clients connect to.
        public let address: String
        /// The demo's HTTP API address (unused by cellar, but the demo needs one).
        let apiAddress: String
        /// The node's running process, nil once killed.
        var process: ChildProcess?

        init(address: String, apiAddress: String) {
            self.address = address
            self.apiAddress = apiAddress
        }
    }

    /// Where `dqlite-demo` is, or nil when it is not installed.
    public static var demoExecutable: String? { executable(named: "dqlite-demo") }
    /// Where go-dqlite's `dqlite` shell is, or nil when it is not installed.
    public static var shellExecutable: String? { executable(named: "dqlite") }
    /// Why cluster tests cannot run here, or nil when they can.
    public static var unavailableReason: String? {
        demoExecutable == nil ? "dqlite-demo not found on PATH (apt-get install go-dqlite)" : nil
    }

    private let directory: TemporaryDirectory
    /// The nodes, in start order (node 0 bootstrapped the cluster).
    public private(set) var nodes: [Node] = []

    /// Starts `size` nodes and waits (at most `timeout` seconds) until all are voters and a leader exists.
    ///
    /// A start that fails (a port taken between choosing and binding it, a node that exits) is retried
    /// once on fresh ports.
    public init(size: Int = 3, timeout: Double = 60) throws {
        guard let demo = Self.demoExecutable else { throw FileBytes.Failure(description: Self.unavailableReason!) }
        directory = TemporaryDirectory()
        do {
            try start(size: size, demo: demo, timeout: timeout, attempt: 0)
        } catch {
            killAll()
            nodes = []
            try start(size: size, demo: demo, timeout: timeout, attempt: 1)
        }
    }

    private func start(size: Int, demo: String, timeout: Double, attempt: Int) throws {
        let deadline = ChildProcess.now() + timeout
        let ports = try Self.freePorts(2 * size)
        for index in 0..<size {
            nodes.append(Node(address: "127.0.0.1:\(ports[2 * index])", apiAddress: "127.0.0.1:\(ports[2 * index + 1])"))
            var arguments = ["--api", nodes[index].apiAddress, "--db", nodes[index].address]
            arguments += ["--dir", directory.file("attempt\(attempt)-node\(index)")]
            if index > 0 { arguments += ["--join", nodes[0..<index].map(\.address).joined(separator: ",")] }
            nodes[index].process = try ChildProcess(demo, arguments)
            if index == 0 { try waitUntil(deadline, "the first node leads") { try self.leader() != nil } }
        }
        try waitUntil(deadline, "\(size) voters") { try self.voterCount() == size && self.leader() != nil }
    }

    deinit {
        for node in nodes {
            guard let process = node.process else { continue }
            process.send(SIGKILL)
            _ = try? process.wait(timeout: 10)
        }
    }

    /// Every node's address joined with commas, as `dqlite://` URLs and `dqlite -s` list them.
    public var addressList: String { nodes.map(\.address).joined(separator: ",") }

    /// The `dqlite://…/NAME` URL of database `name` on this cluster.
    public func url(_ name: String) -> String { "dqlite://\(addressList)/\(name)" }

    /// The current leader's address, asking the live nodes; nil when none is known.
    public func leader() throws -> String? {
        for node in nodes where node.process != nil {
            let result = try shell(["-s", node.address, "demo", ".leader"], timeout: 5)
            let text = result.output.split(separator: "\n").first.map(String.init) ?? ""
            if result.status == 0, !text.isEmpty, nodes.contains(where: { $0.address == text && $0.process != nil }) {
                return text
            }
        }
        return nil
    }

    /// The index of the leader node, waiting (bounded) until one is known.
    public func leaderIndex(timeout: Double = 30) throws -> Int {
        var found: Int?
        try waitUntil(ChildProcess.now() + timeout, "a leader") {
            let address = try self.leader()
            found = self.nodes.firstIndex { $0.address == address }
            return found != nil
        }
        return found!
    }

    /// SIGKILLs node `index` and reaps it.
    public func kill(_ index: Int) {
        guard let process = nodes[index].process else { return }
        process.send(SIGKILL)
        _ = try? process.wait(timeout: 10)
        nodes[index].process = nil
    }

    /// SIGKILLs every node.
    public func killAll() {
        for index in nodes.indices { kill(index) }
    }

    /// Runs go-dqlite's `dqlite` shell against the cluster.
    public func shell(_ arguments: [String], input: [UInt8]? = nil, timeout: Double = 60) throws -> ChildProcess.Result {
        guard let dqlite = Self.shellExecutable else { throw FileBytes.Failure(description: "dqlite shell not found") }
        return try Shell.run(dqlite, arguments, input: input, timeout: timeout)
    }

    // MARK: - Starting

    private func voterCount() throws -> Int {
        guard let leader = try leader() else { return 0 }
        let result = try shell(["-s", leader, "demo", ".cluster"], timeout: 5)
        return result.output.split(separator: "\n").filter { $0.hasSuffix("|voter") }.count
    }

    /// Waits until `condition` holds by `deadline`; a failing check counts as not yet, and a node that
    /// exits ends the wait at once.
    private func waitUntil(_ deadline: Double, _ what: String, _ condition: () throws -> Bool) throws {
        try Poll.until("\(what) (dqlite cluster)", timeout: deadline - ChildProcess.now(), every: 0.1) {
            if (try? condition()) == true { return true }
            if reapExitedNodes() {
                throw FileBytes.Failure(description: "dqlite cluster: a node exited while waiting for \(what)")
            }
            return false
        }
    }

    /// Reaps nodes whose process has ended (a node that could not start); true when there was one.
    private func reapExitedNodes() -> Bool {
        var found = false
        for index in nodes.indices {
            guard let process = nodes[index].process else { continue }
            var status: Int32 = 0
            if waitpid(process.pid, &status, WNOHANG) == process.pid {
                nodes[index].process = nil
                found = true
            }
        }
        return found
    }

    /// `count` TCP ports on loopback that were free a moment ago (bound to port 0, then released).
    public static func freePorts(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        return try (0..<count).map { _ in
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw FileBytes.Failure(description: "socket failed: errno \(errno)") }
            sockets.append(descriptor)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
                }
            }
            guard bound else { throw FileBytes.Failure(description: "bind failed: errno \(errno)") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }

    private static func executable(named name: String) -> String? {
        let path = ProcessEnvironment.current["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where access("\(folder)/\(name)", X_OK) == 0 {
            return "\(folder)/\(name)"
        }
        return nil
    }
}
