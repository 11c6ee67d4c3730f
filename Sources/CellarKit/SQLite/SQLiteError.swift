internal import CSQLite

/// An error reported by SQLite, read immediately after the call that failed.
///
/// `offset` is a byte offset into ``sql`` (the whole text that was being executed, not just the
/// failing statement) when SQLite can point at the failing token; when it cannot (a constraint failing
/// at step time, for instance), it is the offset of the failing statement's first character.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code (<https://sqlite.org/rescode.html>).
    public var code: Int32
    /// SQLite's English message for the error.
    public var message: String
    /// The SQL being executed when the error happened, if any.
    public var sql: String?
    /// Byte offset of the error within ``sql``, if known.
    public var offset: Int?

    /// Creates an error from its parts.
    public init(code: Int32, message: String, sql: String? = nil, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
        self.offset = offset
    }

    /// The primary result code: the low byte of the extended code.
    public var primaryCode: Int32 { code & 0xFF }

    /// The location of ``offset`` within ``sql`` as 1-based line and column, if both are known.
    public var location: SourceLocation? {
        guard let sql, let offset else { return nil }
        return SourceLocation(byteOffset: offset, in: sql)
    }

    /// The message, as SQLite phrases it.
    public var description: String { message }

    /// Whether the error is `SQLITE_BUSY` or `SQLITE_LOCKED`: another connection holds a lock.
    public var isLockContention: Bool { resultCode == .busy || resultCode == .locked }

    /// Whether the error is `SQLITE_INTERRUPT`, raised by ``Database/interrupt()``.
    public var isInterrupt: Bool { resultCode == .interrupt }

    /// Whether the error is `SQLITE_CONSTRAINT` in any of its extended forms.
    public var isConstraintViolation: Bool { resultCode == .constraint }

    /// Reads the current error of a connection.
    static func read(from handle: OpaquePointer?, code: Int32, sql: String? = nil, offset: Int? = nil) -> SQLiteError {
        let message =
            handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
        return SQLiteError(code: extended == 0 ? code : extended, message: message, sql: sql, offset: offset)
    }
}
