/// Two options a command refuses together, and the usage error that says why: declared once in the
/// command's ``CommandSpec`` and checked before the command runs.
struct OptionConflict: Sendable {
    let first: OptionSpec
    let second: OptionSpec
    /// The usage error's message (`--schema-only and --data-only exclude each other`).
    let message: String

    init(_ first: OptionSpec, _ second: OptionSpec, because message: String) {
        self.first = first
        self.second = second
        self.message = message
    }
}
