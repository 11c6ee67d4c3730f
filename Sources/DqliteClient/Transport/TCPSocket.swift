import Glibc

/// A TCP connection over the C library's sockets, every connect, read and write bounded by a deadline.
///
/// The socket is non-blocking: a read or write that cannot go on at once waits with `poll`, so a node
/// that stops answering costs at most the time left until the deadline, never a hang.
final class TCPSocket {
    private(set) var descriptor: Int32
    /// The address this socket is connected to, for messages.
    let address: NodeAddress
    /// Bytes read from the socket and not consumed yet (`inboxStart..<inboxEnd`): one `recv` brings a
    /// reply's header and body together, and several frames of rows when they have arrived.
    private var inbox = [UInt8](repeating: 0, count: 1 << 16)
    private var inboxStart = 0
    private var inboxEnd = 0

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

    /// Writes every byte of `bytes`, waiting only when the socket's send buffer is full.
    func send(_ bytes: [UInt8], deadline: Deadline) throws {
        var sent = 0
        while sent < bytes.count {
            try checkOpen()
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count >= 0 {
                sent += count
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLOUT), deadline: deadline, doing: "writing")
            } else if errno != EINTR {
                throw Self.systemFailure(address)
            }
        }
    }

    /// Reads exactly `count` bytes, from what an earlier read brought in first.
    ///
    /// Memory grows with the bytes that arrive, not with `count`: a peer that announces more than it
    /// sends costs what it sent.
    /// - Throws: `DqliteError.connectionLost` when the peer closes first or the deadline passes.
    func receive(_ count: Int, deadline: Deadline) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(count, inbox.count))
        while bytes.count < count {
            if inboxStart == inboxEnd { try fillInbox(deadline: deadline) }
            let taken = min(count - bytes.count, inboxEnd - inboxStart)
            bytes.append(contentsOf: inbox[inboxStart..<inboxStart + taken])
            inboxStart += taken
        }
        return bytes
    }

    /// Asks the kernel to acknowledge what arrived at once rather than after its delayed-ACK timer.
    ///
    /// A dqlite node leaves Nagle's algorithm on, so it holds a small ROWS frame back until the one
    /// before it is acknowledged; in request-reply traffic Linux delays that acknowledgement (about
    /// 40 ms), waiting for a request to carry it. Called when a frame says more follow.
    func acknowledgeNow() {
        guard descriptor >= 0 else { return }
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_QUICKACK, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Closes the descriptor (idempotent).
    func close() {
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Reads what the socket holds (up to the inbox's size) into the empty inbox, waiting when nothing has arrived.
    private func fillInbox(deadline: Deadline) throws {
        inboxStart = 0
        inboxEnd = 0
        while true {
            try checkOpen()
            let result = inbox.withUnsafeMutableBytes { buffer in
                recv(descriptor, buffer.baseAddress!, buffer.count, 0)
            }
            if result > 0 {
                inboxEnd = result
                return
            }
            if result == 0 {
                throw DqliteError.connectionLost(address: address.description, reason: "the node closed the connection")
            }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLIN), deadline: deadline, doing: "waiting for the reply")
            } else if errno != EINTR {
                throw Self.systemFailure(address)
            }
        }
    }

    private func checkOpen() throws {
        guard descriptor >= 0 else {
            throw DqliteError.connectionLost(address: address.description, reason: "the connection is closed")
        }
    }

    private func wait(for events: Int16, deadline: Deadline, doing activity: String) throws {
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
