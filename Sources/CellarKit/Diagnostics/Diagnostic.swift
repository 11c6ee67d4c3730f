/// An error about a file, located the way compilers locate them: `path:line:column: error: message`.
///
/// The migrator and the script runner throw it; the CLI prints it with the source line and a caret.
public struct Diagnostic: Error, Sendable, CustomStringConvertible {
    /// The file the error is about, as the user named it.
    public var path: String
    /// Where in the file, when known (file-level errors such as a bad name have none).
    public var location: SourceLocation?
    /// The text of the line at ``location``, without its line terminator.
    public var sourceLine: String?
    /// What is wrong, in one line.
    public var message: String
    /// Lines that follow the error (what was rolled back, what to do instead).
    public var notes: [String]
    /// The underlying error, such as the ``SQLiteError`` that failed.
    public var underlying: (any Error & Sendable)?
    /// What kind of failure this is, when a caller may want to act on it (a command line adds advice
    /// about its own flags); nil for everything else.
    public var reason: Reason?

    /// Kinds of failure a caller may want to tell apart without reading the message.
    public enum Reason: Sendable, Equatable {
        /// `BEGIN`, `COMMIT`/`END` or `ROLLBACK` (the operation) refused inside the transaction the
        /// runner opened; the script manages its own transactions.
        case transactionControlRefused(String)
        /// A statement SQLite cannot run inside a transaction (`VACUUM`, some `PRAGMA`s).
        case needsNoTransaction
        /// Something safe mode refuses, described (`the function readfile`, `ATTACH or VACUUM INTO`).
        case refusedBySafeMode(String)
    }

    /// Creates a diagnostic from its parts.
    public init(
        path: String, location: SourceLocation? = nil, sourceLine: String? = nil, message: String,
        notes: [String] = [], underlying: (any Error & Sendable)? = nil
    ) {
        self.path = path
        self.location = location
        self.sourceLine = sourceLine
        self.message = message
        self.notes = notes
        self.underlying = underlying
    }

    /// A diagnostic pointing at a byte offset within the full text of a file.
    public init(path: String, text: String, byteOffset: Int, message: String, underlying: (any Error & Sendable)? = nil) {
        let source = SourceText(text)
        self.init(
            path: path, location: source.location(of: byteOffset), sourceLine: source.lineText(at: byteOffset),
            message: message, underlying: underlying)
    }

    /// `path:line:column: error: message` (or `path: error: message` without a location).
    public var description: String {
        let place = location.map { "\(path):\($0.line):\($0.column)" } ?? path
        return "\(place): error: \(message)"
    }
}
