/// Schema statements of a migration held back so that they reach the leader in one request with the
/// statement after them, instead of one round trip each.
///
/// Only `CREATE`, `DROP` and `ALTER` statements without parameters are held back, and only inside the
/// transaction cellar opened for a migration: they return no rows and change no rows SQLite counts, so
/// nothing the migrator reads in between depends on them having run. The batch is one `EXEC_SQL` text
/// that the server runs statement by statement and stops at the first failure, inside a savepoint, so
/// that a failure can be placed at its statement by running them again one by one.
struct HeldBackStatements {
    /// One statement: its text and the byte offset of its first token in the text it was prepared from.
    struct Piece: Equatable {
        let sql: String
        let offset: Int
        /// Whether the statement ends at the `;` that completes it, as ``StatementBoundaryScanner`` found
        /// it in its own text: from its first token on, the same bytes end at the same `;` in any text.
        var isComplete = false
    }

    /// The savepoint a batch runs in.
    static let savepoint = "cellar_batch"

    private(set) var pieces: [Piece] = []

    var isEmpty: Bool { pieces.isEmpty }

    mutating func append(_ piece: Piece) {
        pieces.append(piece)
    }

    /// The pieces held back, which are no longer.
    mutating func take() -> [Piece] {
        defer { pieces = [] }
        return pieces
    }

    mutating func removeAll() {
        pieces = []
    }

    /// `pieces` as one text, between `SAVEPOINT` and `RELEASE`, or nil unless the local splitter finds
    /// exactly those statements in it again: a statement ending in a comment without a `;` would
    /// swallow the ones after it, and the server stops, reporting success, at an empty statement.
    /// Pieces that are all complete (``Piece/isComplete``) split back into themselves by construction,
    /// so the text is split again only when one is not (a file's last statement without its `;`).
    static func batchText(_ pieces: [Piece]) -> String? {
        let statements =
            ["SAVEPOINT \(savepoint);"] + pieces.map { $0.sql.hasSuffix(";") ? $0.sql : $0.sql + ";" } + ["RELEASE \(savepoint)"]
        let text = statements.joined(separator: "\n")
        if pieces.allSatisfy(\.isComplete) { return text }
        return StatementSplitter.split(text).map(\.sql) == statements ? text : nil
    }
}
