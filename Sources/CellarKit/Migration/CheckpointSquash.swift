/// `cellar squash --to V`: the ``Checkpoint`` that stands for migrations 1…V, made and proved.
///
/// The migrations 1…V (or an existing checkpoint and the files above it) are replayed into an in-memory
/// database (``SchemaReplay``: no seeds, nothing outside memory written); its dump, without the
/// `BEGIN`/`COMMIT` around it, is the checkpoint's SQL, and the ledger rows are each migration's
/// version, name and checksum. Before anything is returned the checkpoint is proved: it is read back
/// as the loader reads it and run by the migrator, as a fresh bootstrap runs it, into a second
/// in-memory database, which must dump byte for byte as the replay does (ledger aside) and hold the
/// checkpoint's ledger rows with `kind = 'checkpoint'`.
///
/// ```swift
/// let squash = try CheckpointSquash(migrations: files, existing: nil, through: 3, path: "migrations/checkpoint.sql")
/// try FileContents.write(Array(squash.text.utf8), to: squash.checkpoint.path)
/// ```
package struct CheckpointSquash {
    /// The checkpoint, as the loader will read it.
    package let checkpoint: Checkpoint
    /// The file's text.
    package let text: String
    /// The tables it creates (SQLite's own left out).
    package let tableCount: Int
    /// The rows it inserts into them.
    package let rowCount: Int
    /// The covered migrations that run with `transaction:false`: what they set outside the schema and
    /// the rows (`PRAGMA journal_mode`, …) is not in a checkpoint.
    package let nonTransactional: [Migration]

    /// Makes and proves the checkpoint of `migrations` through `version`, to be written at `path`.
    ///
    /// - Parameters:
    ///   - existing: the folder's checkpoint now, which the new one replaces (its version must be below
    ///     `version`); it stands for the versions it covers in the replay.
    ///   - options: how the in-memory databases are opened (the user's extensions and functions).
    /// - Throws: ``MigrationError/unknownVersion(_:)`` when no file has `version`;
    ///   ``MigrationError/failed(_:)`` for a version above the newest migration or not above the
    ///   existing checkpoint, an unwritten migration, a replay that fails, or a proof that fails
    ///   (`the checkpoint does not rebuild …`).
    package init(
        migrations: [Migration], existing: Checkpoint?, through version: Int64, path: String,
        options: Database.Options = Database.Options()
    ) throws {
        let sorted = migrations.sorted { $0.version < $1.version }
        if let newest = sorted.last, version > newest.version {
            throw MigrationError.failed(
                Diagnostic(
                    path: path,
                    message: "cannot squash to version \(version): the newest migration is \(newest.identifier)"))
        }
        guard let last = sorted.first(where: { $0.version == version }) else { throw MigrationError.unknownVersion(version) }
        if let existing, existing.version >= version {
            throw MigrationError.failed(
                Diagnostic(
                    path: existing.path,
                    message: "already covers \(existing.coverage): a new checkpoint must go beyond version "
                        + "\(existing.body.versionText), and \(last.identifier) does not"))
        }
        let replay = SchemaReplay(migrations: sorted.filter { $0.version <= version }, checkpoint: existing, options: options)
        let steps = try replay.steps(through: version)
        if let unwritten = steps.first(where: \.isUnwritten) { throw MigrationError.unwritten(path: unwritten.path) }
        let replayed = try replay.replay(through: version)
        let replayedDump = try Self.dump(replayed)
        var sql = replayedDump
        let applicationID = try replayed.scalar("PRAGMA application_id")
        if case .integer(let id) = applicationID, id != 0 { sql += "PRAGMA application_id=\(id);\n" }
        var entries = existing?.entries ?? []
        entries += steps.filter { !$0.isCheckpoint }.map {
            Checkpoint.Entry(version: $0.version, versionText: $0.versionText, name: $0.name, checksum: $0.checksum)
        }
        entries.sort { $0.version < $1.version }
        let text = Checkpoint.render(entries: entries, sql: sql)
        let checkpoint = try Self.prove(
            text, entries: entries, replayedDump: replayedDump, applicationID: applicationID, path: path, replay: replay)
        self.checkpoint = checkpoint
        self.text = text
        let counts = try TableRowCounts.read(replayed)
        self.tableCount = counts.count
        self.rowCount = counts.values.reduce(0, +)
        self.nonTransactional = steps.filter { !$0.up.isTransactional }
    }

    /// The dump of `database` that a checkpoint holds: schema and rows, no transaction around them.
    package static func dump(_ database: any SQLConnection) throws -> String {
        let sink = BufferSink()
        var options = DumpOptions()
        options.wrapsInTransaction = false
        try database.dumpSQL(to: sink, options: options)
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    /// Reads `text` back as the loader does and runs it as a fresh bootstrap does, into a new in-memory
    /// database, which must dump as the replay did and hold `entries` as its ledger.
    ///
    /// - Returns: the checkpoint as read back.
    private static func prove(
        _ text: String, entries: [Checkpoint.Entry], replayedDump: String, applicationID: Value?, path: String,
        replay: SchemaReplay
    ) throws -> Checkpoint {
        func unproved(_ reason: String) -> MigrationError {
            .failed(
                Diagnostic(
                    path: path,
                    message: "the checkpoint does not rebuild what the migrations leave: \(reason)",
                    notes: ["nothing was written"]))
        }
        let checkpoint: Checkpoint
        do {
            checkpoint = try Checkpoint.parse(Array(text.utf8), path: path)
        } catch {
            throw unproved("it does not read back as a checkpoint (\(error.diagnostic?.message ?? error.description))")
        }
        let built = try replay.makeDatabase()
        let migrator = Migrator(connection: built, migrations: [], checkpoint: checkpoint)
        migrator.isRehearsal = true
        do {
            try migrator.migrate()
        } catch {
            let message =
                switch error {
                case let error as MigrationError:
                    error.diagnostic.map { diagnostic in
                        diagnostic.message + (diagnostic.sourceLine.map { " (at: \(ControlCharacterEscaping.escape($0)))" } ?? "")
                    } ?? error.description
                default: "\(error)"
                }
            throw unproved("building a database from it failed: \(message)")
        }
        let ledger = try Ledger.appliedMigrations(in: built)
        let recorded = ledger.map { Checkpoint.Entry(version: $0.version, versionText: "", name: $0.name, checksum: $0.checksum) }
        let expected = entries.map {
            Checkpoint.Entry(version: $0.version, versionText: "", name: $0.name, checksum: $0.checksum)
        }
        guard recorded == expected, ledger.allSatisfy(\.isCheckpoint) else {
            throw unproved("the ledger rows it records are not those of the migrations it covers")
        }
        try built.execute("DROP TABLE main.cellar_migrations")
        let builtDump = try dump(built)
        guard builtDump == replayedDump else {
            throw unproved(
                "its database dumps differently from the replay; first difference: " + firstDifference(builtDump, replayedDump))
        }
        guard try built.scalar("PRAGMA application_id") == applicationID else {
            throw unproved("PRAGMA application_id differs")
        }
        return checkpoint
    }

    /// The first line where `built` and `replayed` differ, both shown.
    private static func firstDifference(_ built: String, _ replayed: String) -> String {
        let left = built.split(separator: "\n", omittingEmptySubsequences: false)
        let right = replayed.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(left.count, right.count) {
            let one = index < left.count ? String(left[index]) : "(end)"
            let other = index < right.count ? String(right[index]) : "(end)"
            if one != other {
                return "line \(index + 1) is \(ControlCharacterEscaping.escape(String(one.prefix(200)))) "
                    + "instead of \(ControlCharacterEscaping.escape(String(other.prefix(200))))"
            }
        }
        return "(none found)"
    }
}
