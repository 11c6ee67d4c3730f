/// The whole command line as one value: the commands, the options every command takes and the tool's
/// own flags. The parser, `--help`, `cellar help`, the completion scripts and the man page all read it,
/// so none of them can drift from what the others say.
struct CommandTable: Sendable {
    /// Every command, in the order help lists them.
    let commands: [CommandSpec]
    /// The options every command accepts (`--database`, `--color`, …).
    let globalOptions: [OptionSpec]
    /// The options of `cellar` itself, before any command: `-V, --version` and `-h, --help`.
    let toolOptions: [OptionSpec]

    /// The options of `cellar` itself (``toolOptions`` of ``cellar``), without building every command's spec.
    static var toolOptions: [OptionSpec] { [VersionInfo.option, HelpFormatter.helpOption] }

    /// cellar's table.
    static var cellar: CommandTable {
        CommandTable(
            commands: CommandRegistry.commands.map { $0.spec }, globalOptions: GlobalOptions.options,
            toolOptions: toolOptions)
    }

    /// Every name a command answers to, aliases included, in help's order.
    var commandNames: [String] { commands.flatMap(\.names) }

    /// The command called `name` (or aliased so), if any.
    func command(named name: String) -> CommandSpec? {
        commands.first { $0.names.contains(name) }
    }

    /// The options `command` accepts: its own, `--help`, then the global ones.
    func options(for command: CommandSpec) -> [OptionSpec] {
        command.options + [HelpFormatter.helpOption] + globalOptions
    }

    /// The usage error for a command name that is not in the table, with a suggestion when one is close.
    func unknownCommand(_ name: String) -> UsageError {
        var message = "unknown command '\(name)'"
        if let suggestion = NearMiss.suggestion(for: name, among: commandNames) {
            message += "; did you mean '\(suggestion)'?"
        }
        return UsageError(message + " (see 'cellar --help')")
    }
}
