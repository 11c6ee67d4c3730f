import CellarKit

/// `cellar query SQL`: runs statements and prints their rows.
enum QueryCommand: Command {
    static let param = OptionSpec(
        "param", value: "value", repeatable: true,
        help: "Bind a parameter: positional for ?, ?NNN; ':name=value' for :name, @name, $name.")
    static let safe = OptionSpec("safe", help: "Refuse readfile, writefile, ATTACH and VACUUM INTO.")

    static let spec = CommandSpec(
        name: "query", cluster: .runs,
        abstract: "Run SQL statements and print their results.",
        arguments: [.init("sql", help: "One or more SQL statements; '-' reads them from standard input.")],
        options: RenderOptionParsing.options + [param, safe, readOnlyOption],
        discussion: """
            Values of --param are bound, never pasted into the SQL: a whole number binds as an integer,
            a decimal number as a real, anything else as text. The database must exist.

            Results stream with bounded memory. box, table and markdown size their columns from the
            first \(RenderOptions.defaultSizingRowCount) rows; a wider cell in a later row is cut with '…'.
            Human modes (box, table, markdown, line) show blobs as their size and type; machine modes
            (list, csv, tsv, json, jsonl, quote, insert) are lossless.
            """,
        examples: [
            .init(
                "cellar query \"SELECT name, country FROM wineries\"",
                "Print the rows as a table (a grid at a terminal, | separated in a pipe)."),
            .init(
                "cellar query \"SELECT * FROM wine WHERE rating >= ?\" --param 4 --mode csv", "Bind a parameter and write CSV."),
            .init("cellar query \"SELECT count(*) FROM wine\" --mode json", "Write JSON, one object per row."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let arguments = invocation.arguments
        let sql = try statements(arguments.positionals[0], io: invocation.io)
        let parameters = try QueryParameters(arguments.values(of: Self.param))
        let options = try RenderOptionParsing.renderOptions(arguments, io: invocation.io, command: spec.name)
        let address = invocation.configuration.address
        if arguments.has(readOnlyOption), !address.setsUpItsConnection {
            throw CommandFailure(
                message: "query --readonly is not available on a dqlite database: the cluster opens no read-only connection")
        }
        if arguments.has(Self.safe), !address.setsUpItsConnection {
            throw CommandFailure(
                message: "query --safe is not available on a dqlite database: cellar cannot install SQLite's "
                    + "authorizer on the cluster's nodes")
        }
        let renderer = ResultRenderer(sink: invocation.io.output, options: options)
        let openingFile = {
            try DatabaseOpener(invocation.configuration).openExisting(
                defensive: true, fileFunctions: true, safe: arguments.has(Self.safe), readOnly: arguments.has(readOnlyOption))
        }
        return try MigrationSession(invocation).withConnection(guarded: true, openingFile: openingFile) { connection in
            try runStatements(sql, on: connection, parameters: parameters, renderer: renderer)
        }
    }

    /// `--readonly`, for `query` and `shell`: the database is opened read-only, as `sqlite3 -readonly`.
    static let readOnlyOption = OptionSpec(
        "readonly", help: "Open the database read-only: it must exist, and a statement that writes fails.")

    /// The SQL to run: the argument, or standard input for `-`; no statement at all is a usage error.
    private static func statements(_ argument: String, io: IO) throws -> String {
        var sql = argument
        if argument == "-" {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while case let count = try buffer.withUnsafeMutableBytes({ try io.input.read(into: $0) }), count > 0 {
                bytes.append(contentsOf: buffer[0..<count])
            }
            sql = try MigrationSession.decoding { () throws(MigrationError) in
                try SQLFileDecoder.decode(bytes, path: "<stdin>")
            }
        }
        guard MigrationParser.hasStatements(sql.utf8) else {
            throw UsageError(
                argument == "-" ? "no SQL statement on standard input" : "no SQL statement to run", command: spec.name)
        }
        return sql
    }

    /// Runs every statement of `sql`, rendering each result; an SQL error names its place in `sql`.
    private static func runStatements(
        _ sql: String, on database: some SQLConnection, parameters: QueryParameters, renderer: ResultRenderer
    ) throws -> ExitStatus {
        do {
            try database.withStatements(in: sql) { cursor in
                while let prepared = try cursor.next() {
                    try parameters.bind(to: prepared.statement)
                    do {
                        try renderer.render(statement: prepared.statement)
                    } catch var error as SQLiteError {
                        error.offset = error.offset ?? prepared.startOffset
                        throw error
                    }
                }
            }
            try renderer.flush()
        } catch let error as SQLiteError {
            try? renderer.flush()
            let message = database.safeModePolicy?.lastRefusal.map(FlagAdvice.message(for:)) ?? error.message
            throw Diagnostic(error, path: "<query>", in: SourceText(sql), message: message)
        }
        return .success
    }
}
