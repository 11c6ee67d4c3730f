import CellarKit

/// `cellar diff`: the proved SQL that turns one schema into another.
enum DiffCommand: Command {
    static let from = OptionSpec(
        "from", value: "source", completion: .file,
        help: "migrations (the folder replayed in memory; the default), a database path or dqlite:// URL, or a .sql file.")
    static let to = OptionSpec(
        "to", value: "source", completion: .file, help: "A source as for --from (default: the schema file).")
    static let against = OptionSpec(
        "against", value: "path",
        help: "Also run the plan on a rehearsal copy of this database and report each table's rows before and after.")
    static let exitCode = OptionSpec("exit-code", help: "Exit 3 when the schemas differ.")
    static let format = OptionSpec(
        "format", value: "format", completion: .choices(["text", "json"]), help: "text (default) or json.")

    static let spec = CommandSpec(
        name: "diff", cluster: .runs,
        abstract: "Print the SQL that turns the FROM schema into the TO schema, proved on a copy first.",
        options: [from, to] + SchemaSources.options + [against, exitCode, format],
        discussion: """
            ALTER TABLE where SQLite allows it, the 12-step table rebuild of SQLite's documentation elsewhere;
            renames only with --rename, drops of tables and columns only with --allow-drop. The plan is run on
            an in-memory copy of the FROM schema and must reach the TO schema (compared as verify --schema
            compares) before it is printed. No difference: no output, exit 0.
            """,
        examples: [
            .init("cellar diff", "The SQL from what the migrations build to schema.sql (beside the migrations folder)."),
            .init(
                "cellar diff --from app.db --to schema.sql --against app.db",
                "From a live database, rehearsed on a copy of it with each table's rows before and after."),
            .init(
                "cellar diff --rename wines.rating=score --exit-code",
                "Rename a column instead of dropping it and adding another; exit 3 when there is work to do."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let format = invocation.arguments.value(of: Self.format) ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("option '--format' expects text or json, not '\(format)'", command: spec.name)
        }
        let sources = SchemaSources(invocation, command: spec.name)
        let options = try sources.plannerOptions()
        let from = try sources.load(invocation.arguments.value(of: Self.from) ?? "migrations")
        let to = try sources.load(invocation.arguments.value(of: Self.to) ?? sources.schemaFile)
        let plan = try sources.plan(from: from, to: to, options: options)
        var rows: [SchemaPlan.TableRows] = []
        if let against = invocation.arguments.value(of: Self.against) {
            rows = try sources.rehearse(plan, against: against, renames: options.renames)
        }
        if format == "json" {
            try invocation.io.output.write(json(plan, rows: rows, rehearsed: invocation.arguments.value(of: Self.against) != nil))
        } else {
            try write(plan.sql, to: invocation.io)
            if let against = invocation.arguments.value(of: Self.against) {
                for row in rows {
                    invocation.io.printError(ControlCharacterEscaping.escape("rehearsed on \(against): \(row)"))
                }
            }
        }
        return !plan.isEmpty && invocation.arguments.has(Self.exitCode) ? .workPending : .success
    }

    /// The plan on standard output, its control characters escaped on a terminal.
    static func write(_ sql: String, to io: IO) throws {
        guard io.isOutputTerminal else { return try io.output.write(sql) }
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            try io.printOutput(ControlCharacterEscaping.escape(String(line)))
        }
    }

    /// `{"changes": [{"kind", "object", "summary", "statements"}…], "rows": […]}`.
    static func json(_ plan: SchemaPlan, rows: [SchemaPlan.TableRows], rehearsed: Bool) -> String {
        let quoted = JSONString.quoted
        let changes = plan.changes.map { change in
            "{\"kind\": \(quoted(change.kind.rawValue)), \"object\": \(quoted(change.object)), "
                + "\"summary\": \(quoted(change.summary)), \"statements\": ["
                + change.statements.map(quoted).joined(separator: ", ") + "]}"
        }
        var text = "{\"changes\": [" + changes.map { "\n  " + $0 }.joined(separator: ",") + (changes.isEmpty ? "]" : "\n]")
        if rehearsed {
            let entries = rows.map { row in
                "{\"table\": \(quoted(row.table)), \"before\": \(row.before.map(String.init) ?? "null"), "
                    + "\"after\": \(row.after.map(String.init) ?? "null")}"
            }
            text += ", \"rows\": [" + entries.joined(separator: ", ") + "]"
        }
        return text + "}\n"
    }
}
