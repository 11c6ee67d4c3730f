import CellarKit

/// `cellar schema`: prints the schema's `CREATE` statements in a stable order.
enum SchemaCommand: Command {
    static let spec = CommandSpec(
        name: "schema", cluster: .runs,
        abstract: "Print the schema (CREATE statements, without cellar's own tables) in a stable order.",
        discussion: "Tables come first, then indexes, views and triggers, each group by name: commit it as schema.sql.",
        examples: [
            .init("cellar schema > schema.sql", "Write the schema in a stable order, for committing beside the migrations.")
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        let schema = try session.withExistingConnection { try $0.schemaText() }
        guard invocation.io.isOutputTerminal else {
            try invocation.io.output.write(schema)
            return .success
        }
        for line in schema.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            try invocation.io.printOutput(ControlCharacterEscaping.escape(String(line)))
        }
        return .success
    }
}
