/// A response the server sends, decoded from its type and body.
enum Response: Equatable, Sendable {
    /// The request failed: SQLite result code and message.
    case failure(code: UInt64, message: String)
    /// The leader's id and address (empty when the node knows of no leader).
    case node(id: UInt64, address: String)
    /// The client is registered.
    case welcome(heartbeatTimeout: UInt64)
    /// A database was opened.
    case database(id: UInt32)
    /// A statement was prepared.
    case statement(database: UInt32, id: UInt32, parameterCount: UInt64)
    /// A statement ran.
    case result(DqliteResult)
    /// Rows of a query.
    case rows(RowFrame)
    /// Done, nothing to report.
    case empty

    /// Decodes the body of a message of type `type`.
    /// - Throws: `DqliteError.protocolViolation` for an unknown type or a malformed body.
    init(type: UInt8, body: [UInt8]) throws {
        guard let kind = WireCode.Response(rawValue: type) else {
            throw DqliteError.protocolViolation("unknown response type \(type)")
        }
        var reader = MessageReader(body: body)
        switch kind {
        case .failure:
            self = .failure(code: try reader.uint64(), message: try reader.string())
        case .node:
            self = .node(id: try reader.uint64(), address: try reader.string())
        case .welcome:
            self = .welcome(heartbeatTimeout: try reader.uint64())
        case .database:
            self = .database(id: try reader.uint32())
        case .statement:
            self = .statement(database: try reader.uint32(), id: try reader.uint32(), parameterCount: try reader.uint64())
        case .result:
            let lastInsertID = Int64(bitPattern: try reader.uint64())
            self = .result(DqliteResult(lastInsertID: lastInsertID, rowsAffected: Int64(bitPattern: try reader.uint64())))
        case .rows:
            self = .rows(try RowFrame(body: body))
        case .empty, .nodes:
            self = .empty
        }
    }

    /// The failure as an error, or nil for any other response.
    var failure: DqliteError? {
        if case .failure(let code, let message) = self { return .server(code: code, message: message) }
        return nil
    }
}
