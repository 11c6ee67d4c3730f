import CellarKit
import DqliteClient

/// Turns a server's failure on one statement into a diagnostic located in its file, as the local
/// engine would: at the statement's first token, or, for a syntax error, at the token SQLite names
/// (found by preparing the statement locally against an empty database, which reports the same
/// syntax error with its offset).
enum RemoteDiagnostic {
    static func locate(
        _ error: DqliteError, statement: StatementSplitter.Piece, sectionOffset: Int, text: String, path: String
    ) -> Diagnostic {
        let message = error.description
        var offset = statement.offset
        if message.hasSuffix("syntax error") || message.hasPrefix("unrecognized token"),
            let local = try? localError(of: statement.sql), local.message == message, let within = local.offset
        {
            offset += within
        }
        return Diagnostic(path: path, text: text, byteOffset: sectionOffset + offset, message: message, underlying: error)
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
