/// Prepares the statements of SQL text one at a time, each from the previous one's tail, over a
/// borrowed buffer (no copy of the text), keeping track of where each statement starts so that errors
/// can name their place. The script runner, migration sections, `query`, the shell and
/// ``Database/execute(_:_:)`` all prepare through it.
///
/// This is what `sqlite3_exec` does, one statement at a time:
/// ```swift
/// try db.withStatements(in: script) { cursor in
///     while let prepared = try cursor.next() { try cursor.run(prepared) }
/// }
/// ```
/// Cancellation is not checked here: the runners check ``SQLConnection/cancellation`` between statements.
package struct StatementCursor<Connection: SQLConnection> {
    /// One statement of the text and where it stands.
    package struct Prepared {
        /// The prepared statement.
        package let statement: Connection.PreparedStatement
        /// Byte offset of the statement's first character (after leading whitespace and comments).
        package let startOffset: Int
        /// Byte offset just past the statement's end (its tail).
        package let endOffset: Int
    }

    private let connection: Connection
    /// The text, whose last byte is a NUL terminator.
    private let text: UnsafeBufferPointer<UInt8>
    private var offset: Int

    /// A cursor over `text` (UTF-8 ending with a NUL byte, which SQLite needs to read it in place),
    /// starting at byte `start`.
    package init(connection: Connection, text: UnsafeBufferPointer<UInt8>, from start: Int = 0) {
        precondition(text.last == 0, "the text must end with a NUL terminator")
        self.connection = connection
        self.text = text
        self.offset = start
    }

    /// The text's length in bytes, without the terminator.
    private var length: Int { text.count - 1 }

    /// The byte offset where the next statement will be looked for.
    package var currentOffset: Int { offset }

    /// Where the next statement would start: `currentOffset` after whitespace, comments and `;`.
    package var nextStatementOffset: Int {
        SQLLexer.statementStart(in: UnsafeBufferPointer(rebasing: text[..<length]), from: offset)
    }

    /// Moves past whitespace, comments and `;` to where the next statement starts (so that ``next()``
    /// does not read them again) and returns that offset, ``nextStatementOffset``.
    package mutating func skipToNextStatement() -> Int {
        offset = nextStatementOffset
        return offset
    }

    /// Whether only whitespace, comments and `;` are left: the statement prepared last was the text's last.
    package var isAtEnd: Bool { nextStatementOffset >= length }

    /// Prepares the next statement, skipping empty ones (a lone `;`, trailing comments).
    ///
    /// - Returns: nil when the text has no more statements.
    /// - Throws: ``SQLiteError`` whose offset, when known, is absolute within the text.
    package mutating func next() throws -> Prepared? {
        while offset < length {
            let start = nextStatementOffset
            guard start < length else {
                offset = start
                return nil
            }
            let (statement, end) = try connection.prepareStatement(in: text, from: start)
            offset = max(end, start + 1)
            if let statement { return Prepared(statement: statement, startOffset: start, endOffset: offset) }
        }
        return nil
    }

    /// Steps a statement from this cursor to the end, calling `onRow` for each row.
    ///
    /// - Throws: ``SQLiteError`` whose offset is the statement's first character (step-time errors
    ///   have no position of their own), unless the engine placed it already: a remote engine that
    ///   sent statements held back from before with this one names the one of them that failed.
    package func run(_ prepared: Prepared, onRow: (Connection.PreparedStatement) throws -> Void = { _ in }) throws {
        do {
            while try prepared.statement.step() {
                try onRow(prepared.statement)
            }
        } catch var error as SQLiteError {
            error.offset = error.offset ?? prepared.startOffset
            throw error
        }
    }

    /// The text of a statement, as written.
    package func text(of prepared: Prepared) -> String {
        String(
            decoding: UnsafeBufferPointer(rebasing: text[prepared.startOffset..<min(prepared.endOffset, length)]), as: UTF8.self)
    }
}

@available(*, unavailable)
extension StatementCursor: Sendable {}

extension SQLConnection {
    /// Calls `body` with a cursor over the statements of `sql`, read in place; an ``SQLiteError`` thrown
    /// out of it carries `sql` as its text.
    package func withStatements<Result>(in sql: String, _ body: (inout StatementCursor<Self>) throws -> Result) throws -> Result {
        let length = sql.utf8.count
        do {
            return try sql.withCString { characters in
                try characters.withMemoryRebound(to: UInt8.self, capacity: length + 1) { bytes in
                    var cursor = StatementCursor(connection: self, text: UnsafeBufferPointer(start: bytes, count: length + 1))
                    return try body(&cursor)
                }
            }
        } catch var error as SQLiteError {
            error.sql = sql
            throw error
        }
    }
}
