import Glibc
import Testing

@testable import DqliteClient

/// Replies read through the session's read buffer from a loopback peer that plays the node: several
/// replies in one segment, one reply larger than the buffer, and a reply that never comes.
struct NodeSessionReadingTests {
    @Test func repliesThatArriveTogetherAreReadOneByOne() throws {
        let peer = try LoopbackPeer()
        let session = try peer.session()
        try peer.send(Self.result(rowsAffected: 1) + Self.failure("first") + Self.result(rowsAffected: 3))
        #expect(try session.nextResponse() == .result(DqliteResult(lastInsertID: 0, rowsAffected: 1)))
        #expect(try session.nextResponse() == .failure(code: 1, message: "first"))
        #expect(try session.nextResponse() == .result(DqliteResult(lastInsertID: 0, rowsAffected: 3)))
    }

    @Test func aReplyLargerThanTheReadBufferArrivesWhole() throws {
        let peer = try LoopbackPeer()
        let session = try peer.session()
        let message = String(repeating: "0123456789", count: 10_000)
        try peer.send(Self.failure(message) + Self.result(rowsAffected: 7))
        #expect(try session.nextResponse() == .failure(code: 1, message: message))
        #expect(try session.nextResponse() == .result(DqliteResult(lastInsertID: 0, rowsAffected: 7)))
    }

    @Test func aReplyCutShortTimesOutInsteadOfHanging() throws {
        let peer = try LoopbackPeer()
        let session = try peer.session()
        try peer.send(Array(Self.result(rowsAffected: 1).prefix(12)))
        #expect(throws: DqliteError.connectionLost(address: peer.address.description, reason: "timed out waiting for the reply"))
        {
            try session.nextResponse(deadline: .after(milliseconds: 50))
        }
    }

    /// A header claiming 0xFFFFFFF0 words (32 GiB) used to make the read reserve that much at once:
    /// `Fatal error: failed to allocate`, SIGABRT, whatever process listened at the address.
    @Test(arguments: [
        (Request.leader, WireCode.Response.node), (.querySQL(database: 0, sql: "SELECT 1", parameters: []), .rows),
    ])
    func aReplyAnnouncingAHugeBodyIsAProtocolError(request: Request, type: WireCode.Response) throws {
        let peer = try LoopbackPeer()
        let session = try peer.session()
        try peer.send(MessageHeader(bodyWords: 0xFFFF_FFF0, type: type.rawValue).bytes + [UInt8](repeating: 0, count: 64))
        let message =
            "node \(peer.address) announced a reply (type \(type.rawValue)) of 34359738240 bytes, more than the 2147483648 "
            + "bytes a reply may hold"
        #expect(throws: DqliteError.protocolViolation(message)) {
            try session.call(request, deadline: .after(milliseconds: 5000))
        }
    }

    /// A body under the limit that never comes costs what arrived, and ends at the deadline.
    @Test func aReplyAnnouncingMoreThanItSendsTimesOut() throws {
        let peer = try LoopbackPeer()
        let session = try peer.session()
        try peer.send(MessageHeader(bodyWords: 0x0FFF_FFFF, type: WireCode.Response.rows.rawValue).bytes + [1, 2, 3])
        #expect(throws: DqliteError.connectionLost(address: peer.address.description, reason: "timed out waiting for the reply"))
        {
            try session.nextResponse(deadline: .after(milliseconds: 50))
        }
    }

    private static func result(rowsAffected: UInt64) -> [UInt8] {
        var body = MessageWriter()
        body.putUInt64(0)
        body.putUInt64(rowsAffected)
        return MessageHeader(bodyWords: 2, type: WireCode.Response.result.rawValue).bytes + body.body
    }

    private static func failure(_ message: String) -> [UInt8] {
        var body = MessageWriter()
        body.putUInt64(1)
        try? body.putString(message)
        let words = UInt32(body.body.count / WireCode.wordSize)
        return MessageHeader(bodyWords: words, type: WireCode.Response.failure.rawValue).bytes + body.body
    }
}

/// A listening socket on a free loopback port and the one connection it accepts.
private final class LoopbackPeer {
    private let listener: Int32
    private var accepted: Int32 = -1
    let address: NodeAddress

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &local) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        try #require(bound)
        address = try NodeAddress("127.0.0.1:\(UInt16(bigEndian: local.sin_port))")
    }

    deinit {
        if accepted >= 0 { close(accepted) }
        close(listener)
    }

    /// A session connected to this peer, the protocol version it sent read and checked.
    func session() throws -> NodeSession {
        let session = try NodeSession(address: address, connectDeadline: .after(milliseconds: 1000), requestTimeout: 5000)
        accepted = accept(listener, nil, nil)
        try #require(accepted >= 0)
        var sendBuffer: Int32 = 1 << 20
        setsockopt(accepted, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
        var version = [UInt8](repeating: 0, count: 8)
        #expect(recv(accepted, &version, 8, Int32(MSG_WAITALL)) == 8)
        #expect(version == [1, 0, 0, 0, 0, 0, 0, 0])
        return session
    }

    /// Writes `bytes` in one call (the send buffer holds them all, so nothing waits for the reader).
    func send(_ bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { Glibc.send(accepted, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
        try #require(written == bytes.count)
    }
}
