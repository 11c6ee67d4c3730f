/// The migrations folder's `checkpoint.sql`: the schema and rows that migrations 1…V leave, with their
/// ledger rows, written by `cellar squash --to V` (see ``CheckpointSquash``).
///
/// A database with no ledger runs it in one transaction instead of the files 1…V and records their
/// ledger rows with `kind = 'checkpoint'`; a database already at V or above never runs it; every replay
/// of the folder uses it for the versions it covers.
///
/// The file is SQL that sqlite3 can run as it is, after a header of comment lines that cellar reads:
///
/// ```
/// -- cellar:checkpoint 0003
/// -- cellar:ledger 0001 create_wineries 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
/// -- cellar:ledger 0002 create_wines 60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752
/// -- cellar:ledger 0003 add_rating fd61a03af4f77d870fc21e05e7e80678095c92d808cfb3b5c279ee04c74aca13
/// CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
/// INSERT INTO wineries VALUES(1,'Château Montelena');
/// …
/// ```
public struct Checkpoint: Sendable, Hashable {
    /// One ledger row the checkpoint records: a migration it stands for.
    public struct Entry: Sendable, Hashable {
        /// The version.
        public let version: Int64
        /// The version as the migration's file name wrote it (`0003`).
        public let versionText: String
        /// The migration's name, as its file name had it.
        public let name: String
        /// The checksum of its up section, as a replay of the file records it.
        public let checksum: String

        /// An entry from its parts.
        public init(version: Int64, versionText: String, name: String, checksum: String) {
            self.version = version
            self.versionText = versionText
            self.name = name
            self.checksum = checksum
        }
    }

    /// The file name in the migrations folder; the loader never reads it as a migration.
    public static let fileName = "checkpoint.sql"

    /// V: the newest version the checkpoint covers.
    public let version: Int64
    /// The ledger rows it records, by version; the last one's version is ``version``.
    public let entries: [Entry]
    /// The file's path as the user named it, for messages.
    public let path: String
    /// What runs: the file's SQL after its header, as a migration of version ``version`` (so that
    /// errors locate themselves in the file).
    public let body: Migration

    /// `0001…0003`: the versions it covers, as the files named them.
    public var coverage: String {
        let first = entries.first?.versionText ?? body.versionText
        return entries.count > 1 ? "\(first)…\(body.versionText)" : first
    }

    /// Whether the checkpoint records `version`.
    public func covers(_ version: Int64) -> Bool {
        entries.contains { $0.version == version }
    }

    private static let checkpointPrefix = "-- cellar:checkpoint "
    private static let ledgerPrefix = "-- cellar:ledger "

    /// Reads a checkpoint file.
    ///
    /// - Throws: ``MigrationError/invalidFile(_:)`` located in the file: a bad encoding, a missing or
    ///   malformed `-- cellar:checkpoint` or `-- cellar:ledger` line, ledger rows out of order or above
    ///   the checkpoint's version.
    package static func parse(_ bytes: [UInt8], path: String) throws(MigrationError) -> Checkpoint {
        let text = try SQLFileDecoder.decode(bytes, path: path)
        var version: (value: Int64, text: String)?
        var entries: [Entry] = []
        var offset = 0
        var bodyOffset: Int?
        let utf8 = Array(text.utf8)
        while offset < utf8.count {
            var end = offset
            while end < utf8.count, utf8[end] != UInt8(ascii: "\n") { end += 1 }
            let line = String(decoding: utf8[offset..<end], as: UTF8.self)
            let trimmed = line.hasSuffix("\r") ? String(line.dropLast()) : line
            func bad(_ message: String) -> MigrationError {
                .invalidFile(Diagnostic(path: path, text: text, byteOffset: offset, message: message))
            }
            if trimmed.hasPrefix(checkpointPrefix) {
                guard version == nil else { throw bad("a second '-- cellar:checkpoint' line") }
                let field = String(trimmed.dropFirst(checkpointPrefix.count))
                guard let value = Self.version(field) else {
                    throw bad("'-- cellar:checkpoint' names no version ('\(field)' is not a whole number above 0)")
                }
                version = (value, field)
            } else if trimmed.hasPrefix(ledgerPrefix) {
                let fields = trimmed.dropFirst(ledgerPrefix.count).split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count == 3, let entryVersion = Self.version(String(fields[0])),
                    MigrationParser.parseFileName("\(fields[0])_\(fields[1]).sql") != nil,
                    fields[2].count == 64, fields[2].utf8.allSatisfy({ Self.isLowerHex($0) })
                else {
                    throw bad("a '-- cellar:ledger' line is 'VERSION NAME CHECKSUM' (a SHA-256 in lowercase hex)")
                }
                if let last = entries.last, last.version >= entryVersion {
                    throw bad("ledger row \(fields[0]) is not above the one before it (\(last.versionText))")
                }
                entries.append(
                    Entry(
                        version: entryVersion, versionText: String(fields[0]), name: String(fields[1]),
                        checksum: String(fields[2])))
            } else if !trimmed.hasPrefix("--"), !trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) {
                bodyOffset = offset
                break
            }
            offset = end + 1
        }
        guard let version else {
            throw .invalidFile(
                Diagnostic(
                    path: path, location: SourceLocation(line: 1, column: 1),
                    message: "not a checkpoint: no '-- cellar:checkpoint VERSION' line in its header "
                        + "(checkpoint.sql is the name cellar squash writes; a migration is named <version>_<name>.sql)"))
        }
        guard let last = entries.last, last.version == version.value else {
            throw .invalidFile(
                Diagnostic(
                    path: path, location: SourceLocation(line: 1, column: 1),
                    message: "the checkpoint's ledger rows must end with its version \(version.text)"))
        }
        // Migrations that leave nothing (no-ops only) squash into a header alone.
        let bodyStart = bodyOffset ?? utf8.count
        let sql = String(decoding: utf8[bodyStart...], as: UTF8.self)
        let body = Migration(
            version: version.value, versionText: version.text, name: "checkpoint", path: path, text: text,
            up: Migration.Section(sql: sql, startOffset: bodyStart, isTransactional: true, hasStatements: bodyOffset != nil),
            down: nil, checksum: SHA256.hexDigest(of: sql.utf8), isUnwritten: false,
            checkpointLabel: "\(Self.fileName) (\(entries.count > 1 ? "\(entries[0].versionText)…" : "")\(version.text))")
        return Checkpoint(version: version.value, entries: entries, path: path, body: body)
    }

    /// The text of a checkpoint file: the explaining comment, the header cellar reads, then `sql`.
    package static func render(entries: [Entry], sql: String) -> String {
        guard let last = entries.last else { return "" }
        let range = entries.count > 1 ? "\(entries[0].versionText)…\(last.versionText)" : last.versionText
        var text = """
            -- The schema and rows that migrations \(range) leave, written by `cellar squash --to \(last.versionText)`
            -- and proved to dump as a replay of those migrations does (seeds not included).
            -- A database with no ledger runs it in one transaction instead of those files and records them
            -- with kind 'checkpoint'; a database at \(last.versionText) or above never runs it. Do not edit it: write a
            -- new migration, or squash again. The lines below tell cellar what it stands for.

            """
        text += "\(checkpointPrefix)\(last.versionText)\n"
        for entry in entries { text += "\(ledgerPrefix)\(entry.versionText) \(entry.name) \(entry.checksum)\n" }
        text += sql
        return text
    }

    private static func version(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int64(text), value > 0 else {
            return nil
        }
        return value
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }
}
