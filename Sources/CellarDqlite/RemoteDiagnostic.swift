import CellarKit

/// What a dqlite server's failure leaves out that a local engine reports: where in the statement it is.
package enum RemoteDiagnostic {
    /// Whether SQLite's `message` reports a syntax error, which a local prepare finds as the server would.
    package static func isSyntaxError(_ message: String) -> Bool {
        message.hasSuffix("syntax error") || message.hasPrefix("unrecognized token") || message == "incomplete input"
    }

    /// The offset within `sql` of the token the server's `message` names (`no such column: x`), found
    /// by preparing `sql` against `schema`, a local copy of the database's schema: the server sends
    /// SQLite's message but not the offset SQLite knows. Nil when the local prepare succeeds (a failure
    /// at run time, which has no place of its own) or fails with another message.
    static func tokenOffset(of message: String, in sql: String, schema: Database) -> Int? {
        do {
            _ = try schema.prepare(sql)
        } catch let local as SQLiteError where local.message == message {
            return local.offset
        } catch {}
        return nil
    }
}
