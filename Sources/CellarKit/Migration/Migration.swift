/// One migration file, read and checked: its version, name, up and down sections and checksum.
///
/// Built by ``MigrationParser`` from a file in the migrations folder or from text an app bundles.
public struct Migration: Sendable, Hashable {
    /// One part of the file: the up section or the down section.
    public struct Section: Sendable, Hashable {
        /// The SQL of the section, exactly as written (CRLF kept, so positions stay those of the file).
        public let sql: String
        /// Byte offset of the section's first byte within ``Migration/text``.
        public let startOffset: Int
        /// Whether the section runs inside a transaction (false after `transaction:false`).
        public let isTransactional: Bool
        /// Whether the section holds at least one statement (not only comments and blanks).
        public let hasStatements: Bool
    }

    /// The version as a number: `0003` and `3` are both 3.
    public let version: Int64
    /// The version as the file name writes it (`0003`), for messages.
    public let versionText: String
    /// The part of the file name after `<version>_`, without `.sql`.
    public let name: String
    /// The file's path as the user named it (`migrations/0003_add_vintage.sql`), or its name in memory.
    public let path: String
    /// The whole text of the file (after a UTF-8 byte order mark, if any).
    public let text: String
    /// The up section (the whole file when it has no markers).
    public let up: Section
    /// The down section, if the file has a `-- migrate:down` line.
    public let down: Section?
    /// SHA-256 (lowercase hex) of the up section with CRLF as LF and trailing whitespace dropped.
    public let checksum: String
    /// Whether the up section is still exactly the template `cellar new` wrote: not written yet, so
    /// applying it is refused (``MigrationError/unwritten(path:)``).
    public let isUnwritten: Bool
    /// For the body of a ``Checkpoint``: how it is named as it runs (`checkpoint.sql (0001…0003)`).
    package var checkpointLabel: String? = nil

    /// The file name's stem: `0003_add_vintage` (for a checkpoint's body, `checkpoint.sql (0001…0003)`).
    public var identifier: String { checkpointLabel ?? "\(versionText)_\(name)" }

    /// Whether this is a ``Checkpoint``'s body rather than a migration file.
    public var isCheckpoint: Bool { checkpointLabel != nil }

    /// Whether the up section holds comments but no statement: a no-op migration (dbmate and diesel
    /// histories keep them), applied with a warning.
    public var isEmpty: Bool { !up.hasStatements }

    /// Whether the file has a down section, so that the migration can be rolled back (a down section
    /// of comments only undoes nothing but the ledger row).
    public var canRollBack: Bool { down != nil }
}
