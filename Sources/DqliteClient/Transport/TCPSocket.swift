import Glibc

/// A TCP connection over the C library's sockets, every connect, read and write bounded by a deadline.
///
/// Reads and writes wait with `poll` before each system call, so a node that stops answering costs at
/// most the time left until the deadline, never a hang.
final class TCPSocket {
    private var descriptor: Int32
    /// The address this socket is connected to, for messages.
    let address: NodeAddress

    private init(descriptor: Int32, address: NodeAddress) {
        self.descriptor = descriptor
        self.address = address
    }

    deinit {
        close()
    }

    /// Connects to `address`, trying each resolved address until one answers.
    /// - Throws: `DqliteError.connectionLost` when none accepts before the deadline.
    static func connect(to address: NodeAddress, deadline: Deadline) throws -> TCPSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &list)
        guard status == 0, let first = list else {
            throw DqliteError.connectionLost(address: address.description, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var failure = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            do {
                return try connect(current.pointee, address: address, deadline: deadline)
            } catch let DqliteError.connectionLost(_, reason) {
                failure = reason
            }
            entry = current.pointee.ai_next
        }
        throw DqliteError.connectionLost(address: address.description, reason: failure)
    }

    private static func connect(_ info: addrinfo, address: NodeAddress, deadline: Deadline) throws -> TCPSocket {
        let descriptor = socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
        guard descriptor >= 0 else { throw systemFailure(address) }
        let connection = TCPSocket(descriptor: descriptor, address: address)
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        if Glibc.connect(descriptor, info.ai_addr, info.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { throw systemFailure(address) }
            try connection.wait(for: Int16(POLLOUT), deadline: deadline, doing: "connecting")
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else {
                throw DqliteError.connectionLost(address: address.description, reason: String(cString: strerror(error)))
            }
        }
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        return connection
    }

    /// Writes every byte of `bytes`.
    func send(_ bytes: [UInt8], deadline: Deadline) throws {
        var sent = 0
        while sent < bytes.count {
            try wait(for: Int16(POLLOUT), deadline: deadline, doing: "writing")
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw Self.systemFailure(address)
            }
            sent += count
        }
    }

    /// Reads exactly `count` bytes.
    /// - Throws: `DqliteError.connectionLost` when the peer closes first or the deadline passes.
    func receive(_ count: Int, deadline: Deadline) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var received = 0
        while received < count {
            try wait(for: Int16(POLLIN), deadline: deadline, doing: "waiting for the reply")
            let result = bytes.withUnsafeMutableBytes { buffer in
                recv(descriptor, buffer.baseAddress! + received, count - received, 0)
            }
            if result == 0 {
                throw DqliteError.connectionLost(address: address.description, reason: "the node closed the connection")
            }
            if result < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw Self.systemFailure(address)
            }
            received += result
        }
        return bytes
    }

    /// Closes the descriptor (idempotent).
    func close() {
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    private func wait(for events: Int16, deadline: Deadline, doing activity: String) throws {
        guard descriptor >= 0 else {
            throw DqliteError.connectionLost(address: address.description, reason: "the connection is closed")
        }
        while true {
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, deadline.remainingMilliseconds)
            if ready > 0 { return }
            if ready == 0 {
                throw DqliteError.connectionLost(address: address.description, reason: "timed out \(activity)")
            }
            if errno != EINTR { throw Self.systemFailure(address) }
        }
    }

    private static func systemFailure(_ address: NodeAddress) -> DqliteError {
        .connectionLost(address: address.description, reason: String(cString: strerror(errno)))
    }
}
