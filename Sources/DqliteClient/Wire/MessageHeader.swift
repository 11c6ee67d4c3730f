/// The one-word header in front of every message: body size in words, type, schema revision.
struct MessageHeader: Equatable, Sendable {
    /// The size of the body in words.
    var bodyWords: UInt32
    /// The message type code.
    var type: UInt8
    /// The schema revision of the body (0 for every message this client sends).
    var revision: UInt8

    /// The header's 8 bytes: size (little endian), type, revision, two unused bytes.
    var bytes: [UInt8] {
        [
            UInt8(truncatingIfNeeded: bodyWords), UInt8(truncatingIfNeeded: bodyWords >> 8),
            UInt8(truncatingIfNeeded: bodyWords >> 16), UInt8(truncatingIfNeeded: bodyWords >> 24),
            type, revision, 0, 0,
        ]
    }

    /// The largest body a reply may have, in bytes: 2 GiB, twice SQLite's default limit on one string
    /// or blob (`SQLITE_MAX_LENGTH`, <https://sqlite.org/limits.html>), which a ROWS frame holding one
    /// such value, with its row header, stays under. A header announcing more is a protocol error,
    /// not an allocation.
    static let largestBodyByteCount = 1 << 31

    /// The body's size in bytes.
    var bodyByteCount: Int { Int(bodyWords) * WireCode.wordSize }

    init(bodyWords: UInt32, type: UInt8, revision: UInt8 = 0) {
        self.bodyWords = bodyWords
        self.type = type
        self.revision = revision
    }

    /// Reads a header from its 8 bytes.
    init(bytes: some Collection<UInt8>) {
        let header = Array(bytes)
        precondition(header.count == WireCode.wordSize, "a header is one word")
        bodyWords = UInt32(header[0]) | UInt32(header[1]) << 8 | UInt32(header[2]) << 16 | UInt32(header[3]) << 24
        type = header[4]
        revision = header[5]
    }
}
