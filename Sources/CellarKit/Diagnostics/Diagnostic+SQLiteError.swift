extension Diagnostic {
    /// The one way an SQLite error becomes a located diagnostic: at the byte SQLite names (the token a
    /// prepare error is about), else at `statementStart`, the first byte of the statement that failed
    /// (a step-time error names none); with that line's text, and the error as ``underlying``.
    ///
    /// - Parameters:
    ///   - error: the failure; its offset, when it has one, counts like `statementStart` within `text`.
    ///   - path: the file, as the user named it (`<stdin>`, `<query>` for text that is no file).
    ///   - text: the SQL the offsets point into.
    ///   - message: what to say instead of SQLite's message (a refusal explained), if anything.
    ///   - notes: lines that follow the error (what was rolled back).
    package init(
        _ error: SQLiteError, path: String, in text: some LocatableText, statementStart: Int = 0, message: String? = nil,
        notes: [String] = []
    ) {
        let offset = error.offset ?? statementStart
        self.init(
            path: path, location: text.location(of: offset), sourceLine: text.lineText(at: offset),
            message: message ?? error.message, notes: notes, underlying: error)
    }
}
