import CellarKit

/// `cellar dump [TABLE…]`: writes SQL that rebuilds the database, in the shape of sqlite3's `.dump`.
enum DumpCommand: Command {
    static let schemaOnly = OptionSpec("schema-only", help: "Write the CREATE statements only.")
    static let dataOnly = OptionSpec("data-only", help: "Write the INSERT statements only, with no transaction around them.")

    static let spec = CommandSpec(
        name: "dump", cluster: .runs,
        abstract: "Write SQL text that rebuilds the database (the shape of sqlite3's .dump).",
        arguments: [
            .init("table", help: "Tables to dump, by name or LIKE pattern (default: all).", optional: true, repeatable: true)
        ],
        options: [schemaOnly, dataOnly],
        conflicts: [.init(schemaOnly, dataOnly, because: "--schema-only and --data-only exclude each other")],
        discussion: """
            'sqlite3 new.db < dump.sql' and 'cellar run --autocommit dump.sql' both rebuild the database:
            every row, reals bit for bit, blobs, sqlite_sequence, views and triggers, cellar's ledgers,
            and PRAGMA user_version when it is not 0 and every table is dumped. A selected table brings
            its indexes, triggers and sqlite_sequence row. Rows stream: memory stays bounded.
            """,
        examples: [
            .init("cellar dump > backup.sql", "Write SQL text that rebuilds the whole database, ledgers included."),
            .init("cellar dump wine --data-only", "Only the INSERT statements of one table."),
            .init("cellar dump --schema-only", "Only the CREATE statements."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let arguments = invocation.arguments
        let content: DumpOptions.Content =
            arguments.has(Self.schemaOnly) ? .schemaOnly : arguments.has(Self.dataOnly) ? .dataOnly : .schemaAndData
        let options = DumpOptions(
            tablePatterns: arguments.positionals, content: content,
            escapesControlCharacters: invocation.io.isOutputTerminal)
        let session = MigrationSession(invocation)
        // The bytes written, on a terminal's standard error while the dump goes to a file or a pipe.
        var output = invocation.io.output
        let progress = invocation.io.isOutputTerminal ? nil : ProgressLine.forTerminal(invocation)
        if let progress {
            output = ProgressLine.counting(output) { total in
                progress.update { ProgressLine.text("dump", bytes: total, of: nil, seconds: $0) }
            }
        }
        defer { progress?.clear() }
        do {
            try session.withExistingConnection { try $0.dumpSQL(to: output, options: options) }
        } catch let error as DumpError {
            throw CommandFailure(message: error.description)
        }
        return .success
    }
}
