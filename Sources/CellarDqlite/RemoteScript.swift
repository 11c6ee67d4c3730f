import CellarKit
import DqliteClient

/// Runs SQL text on a dqlite database statement by statement, rendering the rows of those that
/// return some, in one transaction of its own unless asked to run in autocommit.
public struct RemoteScript {
    let database: RemoteDatabase
    let renderer: ResultRenderer

    /// A runner on `database` writing rows to `renderer`.
    public init(database: RemoteDatabase, renderer: ResultRenderer) {
        self.database = database
        self.renderer = renderer
    }

    /// Runs `text` (the script at `path`, for diagnostics).
    /// - Throws: a ``Diagnostic`` located at the failing statement; the transaction is rolled back.
    public func run(_ text: String, path: String, isTransactional: Bool) throws {
        let pieces = StatementSplitter.split(text)
        if isTransactional {
            for piece in pieces {
                if let operation = TransactionControl.operation(of: piece.sql) {
                    throw Diagnostic(
                        path: path, text: text, byteOffset: piece.offset,
                        message: "\(operation) is not allowed here: cellar runs the script in one transaction of its own")
                }
            }
            try database.beginImmediate()
        }
        var current = pieces.first
        do {
            for piece in pieces {
                current = piece
                if RemoteStatement.returnsRows(piece.sql) {
                    let rows = try database.stream(piece.sql)
                    try renderer.render(columns: rows.columns, rows: rows.next)
                } else {
                    try database.execute(piece.sql)
                }
            }
            if isTransactional { try database.execute("COMMIT") }
        } catch let error as DqliteError where !error.isLeadershipLoss {
            if isTransactional { database.rollbackIfOpen() }
            try? renderer.flush()
            let piece = current ?? StatementSplitter.Piece(sql: text, offset: 0)
            throw RemoteDiagnostic.locate(error, statement: piece, sectionOffset: 0, text: text, path: path)
        }
    }
}
