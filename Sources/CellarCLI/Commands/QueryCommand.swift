import CellarKit

/// `cellar query SQL`: runs statements and prints their rows.
enum QueryCommand: Command {
    static let spec = CommandSpec(
        name: "query",
        abstract: "Run SQL statements and print their results.",
        arguments: [.init("sql", help: "One or more SQL statements.")],
        options: [
            OptionSpec(
                "mode", value: "mode",
                help: "Output mode: \(OutputMode.allCases.map(\.rawValue).joined(separator: ", ")) (default list)."),
            OptionSpec(
                "param", value: "value", repeatable: true,
                help: "Bind a parameter: positional for ?, ?NNN; ':name=value' for :name, @name, $name."),
            OptionSpec("header", help: "Show column headers."),
            OptionSpec("no-header", help: "Hide column headers."),
        ],
        discussion: """
            Values of --param are bound, never pasted into the SQL: a whole number binds as an integer,
            a decimal number as a real, anything else as text. The database must exist.
            """)

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let arguments = invocation.arguments
        let sql = arguments.positionals[0]
        let parameters = try QueryParameters(arguments.allValues("param"))
        let options = try renderOptions(arguments, io: invocation.io)
        let database = try DatabaseOpener(invocation.configuration).openExisting(defensive: true)
        let renderer = ResultRenderer(sink: invocation.io.output, options: options)
        var cursor = StatementCursor(database: database, sql: sql)
        do {
            while let prepared = try cursor.next() {
                try parameters.bind(to: prepared.statement)
                do {
                    try renderer.render(prepared.statement)
                } catch var error as SQLiteError {
                    error.sql = sql
                    error.offset = prepared.startOffset
                    throw error
                }
            }
            try renderer.flush()
        } catch let error as SQLiteError {
            try? renderer.flush()
            throw Diagnostic(path: "<query>", text: sql, byteOffset: error.offset ?? 0, message: error.message, underlying: error)
        }
        return .success
    }

    private static func renderOptions(_ arguments: ParsedArguments, io: IO) throws(UsageError) -> RenderOptions {
        var options = RenderOptions(escapesControlCharacters: io.isOutputTerminal)
        if let modeName = arguments.value("mode") {
            guard let mode = OutputMode(rawValue: modeName) else {
                var message = "unknown mode '\(modeName)'"
                if let suggestion = NearMiss.suggestion(for: modeName, among: OutputMode.allCases.map(\.rawValue)) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw UsageError(message, command: spec.name)
            }
            options.mode = mode
        }
        if arguments.has("header") { options.showsHeaders = true }
        if arguments.has("no-header") { options.showsHeaders = false }
        return options
    }
}
