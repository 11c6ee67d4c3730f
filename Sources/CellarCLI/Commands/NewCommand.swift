import CellarKit

/// `cellar new NAME`: creates the next migration file with up and down sections.
enum NewCommand: Command {
    static let timestamp = OptionSpec("timestamp", help: "Use the UTC time YYYYMMDDHHMMSS as the version instead.")
    static let fromSchema = OptionSpec(
        "from-schema",
        help: "Write the up section as the proved plan from the migrations to the schema file, the down as the plan back.")

    static let spec = CommandSpec(
        name: "new",
        abstract: "Create migrations/NNNN_name.sql (next number, at least 4 digits) with up and down sections.",
        arguments: [.init("name", help: "Letters, digits, _ and -.")],
        options: [timestamp, fromSchema] + SchemaSources.options,
        discussion: """
            With --from-schema, --rename and --allow-drop govern the up section; the down section may drop what
            the up created, and its first comment names each table and column it drops with its data. No
            difference between the migrations and the schema file: an error, nothing written.
            """,
        examples: [
            .init(
                "cellar new create_notes", "Write migrations/NNNN_create_notes.sql (the next number) with up and down sections."),
            .init("cellar new add_tags --timestamp", "Number it with the UTC time instead (20261129120000_add_tags.sql)."),
            .init(
                "cellar new retype_rating --from-schema",
                "Write the proved plan from what the migrations build to schema.sql, with the plan back as its down section."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let name = invocation.arguments.positionals[0]
        guard NewMigrationFile.isValidName(name) else {
            throw UsageError("'\(name)' is not a migration name (letters, digits, _ and - only)", command: spec.name)
        }
        let contents =
            invocation.arguments.has(Self.fromSchema) ? try planned(invocation) : MigrationTemplate.text
        let created = try NewMigrationFile.create(
            name: name, contents: contents, in: invocation.configuration.migrationsDirectory,
            timestamped: invocation.arguments.has(Self.timestamp))
        try invocation.io.printOutput(ControlCharacterEscaping.escape(created.path))
        return .success
    }

    /// The migration from what the migrations folder builds to the schema file: the up section the
    /// plan there, the down section the plan back, both proved.
    private static func planned(_ invocation: Invocation) throws -> String {
        let sources = SchemaSources(invocation, command: spec.name)
        let options = try sources.plannerOptions()
        let current = try sources.replayMigrations()
        let desired = try sources.load(sources.schemaFile)
        let up = try sources.plan(from: current, to: desired, options: options)
        guard !up.isEmpty else {
            throw CommandFailure(
                message:
                    "the migrations already build the schema in '\(sources.schemaFile)': no migration to write, nothing written")
        }
        let down = try sources.plan(
            from: desired, to: current,
            options: SchemaPlanner.Options(renames: SchemaRename.undoing(options.renames), allowsDrop: true))
        return NewMigrationFile.text(up: up, down: down)
    }
}
