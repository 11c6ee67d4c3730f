/// What a shell offers, in the scripts `cellar completions` writes, for an option's value or a
/// positional argument.
enum ValueCompletion: Sendable, Equatable {
    /// Free text (SQL, a number, a name): nothing to offer.
    case none
    /// A file (or a folder on the way to one).
    case file
    /// A folder.
    case directory
    /// One of these words (`--mode`, `--color`, `--format`).
    case choices([String])
    /// A `cellar` command name (`cellar help COMMAND`).
    case commandName

    /// The completion a placeholder name suggests, for specs that do not say: `<path>` and `<file>`
    /// complete files, `<dir>` folders, anything else nothing. Commands added later get file
    /// completion without asking for it.
    static func inferred(from placeholder: String?) -> ValueCompletion {
        switch placeholder {
        case "path", "file", "files", "script", "backup": .file
        case "dir", "directory", "folder": .directory
        default: .none
        }
    }
}
