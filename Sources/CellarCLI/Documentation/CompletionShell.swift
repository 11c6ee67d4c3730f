/// A shell `cellar completions` writes a script for.
enum CompletionShell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// The completion script for `table`.
    func script(for table: CommandTable) -> String {
        switch self {
        case .bash: BashCompletionScript.render(table)
        case .zsh: ZshCompletionScript.render(table)
        case .fish: FishCompletionScript.render(table)
        }
    }
}
