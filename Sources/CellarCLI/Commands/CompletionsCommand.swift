import CellarKit

/// `cellar completions bash|zsh|fish`: prints a completion script generated from the command table.
enum CompletionsCommand: Command {
    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a script that completes cellar's commands, options and their values in bash, zsh or fish.",
        arguments: [
            .init("shell", help: "bash, zsh or fish.", completion: .choices(CompletionShell.allCases.map(\.rawValue)))
        ],
        discussion: """
            bash: source <(cellar completions bash), or save it as
            /usr/share/bash-completion/completions/cellar. zsh: save it as _cellar in a folder of $fpath.
            fish: save it as ~/.config/fish/completions/cellar.fish.
            """,
        examples: [
            .init(
                "cellar completions bash > ~/.local/share/bash-completion/completions/cellar",
                "Install tab completion for bash, for this user.")
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let name = invocation.arguments.positionals[0]
        guard let shell = CompletionShell(rawValue: name) else {
            throw UsageError("unknown shell '\(name)'; cellar completes bash, zsh and fish", command: spec.name)
        }
        try invocation.io.output.write(shell.script(for: .cellar))
        return .success
    }
}
