import CellarKit
import DqliteClient

/// Turns a server's failure on one statement into a diagnostic located in its file, as the local
/// engine would: at the statement's first token, or, for a syntax error, at the token SQLite names
/// (found by preparing the statement locally against an empty database, which reports the same
/// syntax error with its offset).
package enum RemoteDiagnostic {
    static func locate(
        _ error: DqliteError, statement: StatementSplitter.Piece, sectionOffset: Int, text: String, path: String
    ) -> Diagnostic {
        let offset = statement.offset + (tokenOffset(of: error, in: statement) ?? 0)
        return Diagnostic(
            path: path, text: text, byteOffset: sectionOffset + offset, message: error.description, underlying: error)
    }

    /// For a syntax error, the offset within the statement of the token SQLite names; nil otherwise.
    static func tokenOffset(of error: DqliteError, in statement: StatementSplitter.Piece) -> Int? {
        let message = error.description
        guard isSyntaxError(message), let local = try? localError(of: statement.sql), local.message == message
        else { return nil }
        return local.offset
    }

    /// Whether SQLite's `message` reports a syntax error, which a local prepare finds as the server would.
    package static func isSyntaxError(_ message: String) -> Bool {
        message.hasSuffix("syntax error") || message.hasPrefix("unrecognized token") || message == "incomplete input"
    }

    private static func localError(of sql: String) throws -> SQLiteError? {
        let scratch = try Database(path: ":memory:")
        do {
            _ = try scratch.prepare(sql)
            return nil
        } catch let error as SQLiteError {
            return error
        }
    }
}
