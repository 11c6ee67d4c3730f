internal import CSQLite

/// Prepares the statements of a script one at a time, from each prepare's tail, and keeps track of
/// where each one starts so that errors can name their place.
///
/// This is what `sqlite3_exec` does, one statement at a time:
/// ```swift
/// var cursor = StatementCursor(database: db, sql: script)
/// while let prepared = try cursor.next() {
///     try cursor.run(prepared)
/// }
/// ```
package struct StatementCursor {
    /// One statement of the script and where it stands.
    package struct Prepared {
        /// The prepared statement.
        package let statement: Statement
        /// Byte offset of the statement's first character (after leading whitespace and comments).
        package let startOffset: Int
        /// Byte offset just past the statement's end (its tail).
        package let endOffset: Int
    }

    private let database: Database
    private let text: String
    /// The script's UTF-8 bytes followed by a NUL, so that SQLite can parse them in place; given a
    /// length without the terminator it would copy the rest of the script at every prepare.
    private let terminated: [UInt8]
    private var offset = 0

    /// Creates a cursor over `sql` on `database`.
    package init(database: Database, sql: String) {
        self.database = database
        self.text = sql
        self.terminated = Array(sql.utf8) + [0]
    }

    /// The script's length in bytes, without the terminator.
    private var length: Int { terminated.count - 1 }

    /// The byte offset where the next statement will be looked for.
    package var currentOffset: Int { offset }

    /// Prepares the next statement, skipping empty ones (a lone `;`, trailing comments).
    ///
    /// - Returns: nil when the script has no more statements.
    /// - Throws: ``SQLiteError`` whose offset points into the whole script; `SQLITE_INTERRUPT` when the
    ///   database's ``Database/cancellation`` is set.
    package mutating func next() throws -> Prepared? {
        let handle = try database.openHandle()
        do {
            try database.checkCancellation()
        } catch var error as SQLiteError {
            error.sql = text
            error.offset = terminated.withUnsafeBufferPointer {
                SQLTrivia.end(in: UnsafeBufferPointer(rebasing: $0[..<length]), from: offset)
            }
            throw error
        }
        while offset < length {
            let start = terminated.withUnsafeBufferPointer {
                SQLTrivia.end(in: UnsafeBufferPointer(rebasing: $0[..<length]), from: offset)
            }
            guard start < length else {
                offset = start
                return nil
            }
            var statement: OpaquePointer?
            var consumed = 0
            let code = terminated.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { characters in
                    let base = characters.baseAddress! + start
                    var tail: UnsafePointer<CChar>?
                    // The count includes the NUL terminator, so SQLite reads the text in place.
                    let code = sqlite3_prepare_v2(handle, base, Int32(buffer.count - start), &statement, &tail)
                    consumed = tail.map { $0 - base } ?? (length - start)
                    return code
                }
            }
            guard code == SQLITE_OK else {
                let errorOffset = Int(cellar_error_offset(handle))
                sqlite3_finalize(statement)
                throw SQLiteError.read(from: handle, code: code, sql: text, offset: start + max(errorOffset, 0))
            }
            let end = start + max(consumed, 1)
            offset = end
            if let statement {
                return Prepared(statement: Statement(handle: statement, database: database), startOffset: start, endOffset: end)
            }
        }
        return nil
    }

    /// Steps a statement from this cursor to the end, calling `onRow` for each row.
    ///
    /// - Throws: ``SQLiteError`` whose offset is the statement's first character.
    package func run(_ prepared: Prepared, onRow: (Statement) throws -> Void = { _ in }) throws {
        do {
            while try prepared.statement.step() {
                try onRow(prepared.statement)
            }
        } catch var error as SQLiteError {
            error.sql = text
            error.offset = prepared.startOffset
            throw error
        }
    }

    /// The text of the statement, as written in the script.
    package func text(of prepared: Prepared) -> String {
        String(decoding: terminated[prepared.startOffset..<min(prepared.endOffset, length)], as: UTF8.self)
    }
}

@available(*, unavailable)
extension StatementCursor: Sendable {}
