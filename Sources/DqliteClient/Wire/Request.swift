/// A request this client sends, as go-dqlite's `request.go` encodes it.
enum Request: Equatable, Sendable {
    /// Who leads the cluster (any node answers).
    case leader
    /// Registers the client on the leader.
    case client(id: UInt64)
    /// Opens database `name` (the VFS name is ignored by the server; go-dqlite sends "volatile").
    case open(name: String)
    /// Prepares one statement.
    case prepare(database: UInt32, sql: String)
    /// Runs a prepared statement that returns no rows.
    case exec(database: UInt32, statement: UInt32, parameters: [DqliteValue])
    /// Runs a prepared statement and returns its rows.
    case query(database: UInt32, statement: UInt32, parameters: [DqliteValue])
    /// Frees a prepared statement.
    case finalize(database: UInt32, statement: UInt32)
    /// Prepares and runs SQL text that returns no rows.
    case execSQL(database: UInt32, sql: String, parameters: [DqliteValue])
    /// Prepares and runs one statement and returns its rows.
    case querySQL(database: UInt32, sql: String, parameters: [DqliteValue])
    /// Stops the rows of the running query.
    case interrupt(database: UInt32)

    /// The message bytes, header included.
    /// - Throws: `DqliteError.invalidRequest` when a value cannot be sent.
    func encoded() throws -> [UInt8] {
        var writer = MessageWriter(capacity: expectedBodySize)
        let type: WireCode.Request
        switch self {
        case .leader:
            writer.putUInt64(0)
            type = .leader
        case .client(let id):
            writer.putUInt64(id)
            type = .client
        case .open(let name):
            try writer.putString(name)
            writer.putUInt64(0)
            try writer.putString("volatile")
            type = .open
        case .prepare(let database, let sql):
            writer.putUInt64(UInt64(database))
            try writer.putString(sql)
            type = .prepare
        case .exec(let database, let statement, let parameters), .query(let database, let statement, let parameters):
            writer.putUInt32(database)
            writer.putUInt32(statement)
            try writer.putParameters(parameters)
            type = if case .exec = self { .exec } else { .query }
        case .finalize(let database, let statement):
            writer.putUInt32(database)
            writer.putUInt32(statement)
            type = .finalize
        case .execSQL(let database, let sql, let parameters), .querySQL(let database, let sql, let parameters):
            writer.putUInt64(UInt64(database))
            try writer.putString(sql)
            try writer.putParameters(parameters)
            type = if case .execSQL = self { .execSQL } else { .querySQL }
        case .interrupt(let database):
            writer.putUInt64(UInt64(database))
            type = .interrupt
        }
        return writer.message(type: type)
    }

    /// About the bytes the body takes: the text's, its terminator and padding, the words around it,
    /// and a few words a parameter.
    private var expectedBodySize: Int {
        switch self {
        case .prepare(_, let sql): sql.utf8.count + 64
        case .execSQL(_, let sql, let parameters), .querySQL(_, let sql, let parameters):
            sql.utf8.count + 64 + parameters.count * 24
        default: 64
        }
    }
}
