/// The numbers of dqlite's wire protocol, version 1
/// (<https://dqlite.io/docs/reference/wire-protocol>; go-dqlite's `internal/protocol/constants.go`).
enum WireCode {
    /// The protocol version sent in the handshake.
    static let protocolVersion: UInt64 = 1
    /// Bytes in a word: every field and every message body is a whole number of words.
    static let wordSize = 8

    /// Request message types.
    enum Request: UInt8 {
        case leader = 0
        case client = 1
        case open = 3
        case prepare = 4
        case exec = 5
        case query = 6
        case finalize = 7
        case execSQL = 8
        case querySQL = 9
        case interrupt = 10
    }

    /// Response message types.
    enum Response: UInt8 {
        case failure = 0
        case node = 1
        case welcome = 2
        case nodes = 3
        case database = 4
        case statement = 5
        case result = 6
        case rows = 7
        case empty = 8
    }

    /// Value type codes in tuples (parameters and rows).
    enum ValueType: UInt8 {
        case integer = 1
        case float = 2
        case text = 3
        case blob = 4
        case null = 5
        case unixTime = 9
        case iso8601 = 10
        case boolean = 11
    }

    /// The word ending the last ROWS frame of a result.
    static let rowsDone: UInt8 = 0xff
    /// The word ending a ROWS frame that another one follows.
    static let rowsPart: UInt8 = 0xee
}
