import CellarKit

/// `cellar help [COMMAND]`: the same text as `cellar --help` or `cellar COMMAND --help`.
enum HelpCommand: Command {
    static let spec = CommandSpec(
        name: "help",
        abstract: "Show help for cellar, or for one command (the same text as --help).",
        arguments: [.init("command", help: "The command to explain.", optional: true, completion: .commandName)],
        examples: [
            .init("cellar help migrate", "The same text as 'cellar migrate --help'.")
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let table = CommandTable.cellar
        guard let name = invocation.arguments.positionals.first else {
            try invocation.io.output.write(HelpFormatter.toolHelp(table))
            return .success
        }
        guard let command = table.command(named: name) else { throw table.unknownCommand(name) }
        try invocation.io.output.write(HelpFormatter.help(for: command, globalOptions: table.globalOptions))
        return .success
    }
}
