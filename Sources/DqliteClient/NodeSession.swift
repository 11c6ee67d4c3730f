/// One handshaken protocol connection to one node: requests out, responses in, each bounded in time.
final class NodeSession {
    private let socket: TCPSocket
    /// How long one request may wait for its reply.
    private let requestTimeout: Int

    /// The node's address.
    var address: NodeAddress { socket.address }
    /// The socket's descriptor, for ``DqliteAbort``.
    var descriptor: Int32 { socket.descriptor }

    /// Connects to `address` and sends the protocol version.
    init(address: NodeAddress, connectDeadline: Deadline, requestTimeout: Int) throws {
        socket = try TCPSocket.connect(to: address, deadline: connectDeadline)
        self.requestTimeout = requestTimeout
        var writer = MessageWriter()
        writer.putUInt64(WireCode.protocolVersion)
        try socket.send(writer.body, deadline: connectDeadline)
    }

    /// Sends `request` and reads its (first) response.
    func call(_ request: Request, deadline: Deadline? = nil) throws -> Response {
        let limit = deadline ?? .after(milliseconds: requestTimeout)
        try send(request, deadline: limit)
        return try nextResponse(deadline: limit)
    }

    /// Sends `request` without waiting for its reply.
    func send(_ request: Request, deadline: Deadline) throws {
        try socket.send(try request.encoded(), deadline: deadline)
    }

    /// Sends `requests` in one write without waiting for their replies, and asks for the replies to be
    /// acknowledged at once: a node leaves Nagle's algorithm on, so it holds the second reply back until
    /// the first is acknowledged.
    func send(together requests: [Request], deadline: Deadline) throws {
        var bytes: [UInt8] = []
        for request in requests { bytes += try request.encoded() }
        try socket.send(bytes, deadline: deadline)
        socket.acknowledgeNow()
    }

    /// Reads the next response, such as the next ROWS frame of a query.
    func nextResponse(deadline: Deadline? = nil) throws -> Response {
        let limit = deadline ?? .after(milliseconds: requestTimeout)
        let header = MessageHeader(bytes: try socket.receive(WireCode.wordSize, deadline: limit))
        guard header.bodyByteCount <= MessageHeader.largestBodyByteCount else {
            throw DqliteError.protocolViolation(
                "node \(address) announced a reply (type \(header.type)) of \(header.bodyByteCount) bytes, more than the "
                    + "\(MessageHeader.largestBodyByteCount) bytes a reply may hold")
        }
        let body = try socket.receive(header.bodyByteCount, deadline: limit)
        if header.type == WireCode.Response.rows.rawValue, body.count >= WireCode.wordSize,
            body[body.count - WireCode.wordSize] == WireCode.rowsPart
        {
            socket.acknowledgeNow()
        }
        return try Response(type: header.type, body: body)
    }

    /// Closes the connection.
    func close() {
        socket.close()
    }
}
