import CellarKit

/// `cellar manual`: prints the man page (roff), or the Markdown command reference, both generated from
/// the command table `--help` reads.
enum ManualCommand: Command {
    static let format = OptionSpec(
        "format", value: "format", completion: .choices(["roff", "markdown"]),
        help: "roff (default): the man page; markdown: docs/reference/commands.md.")

    static let spec = CommandSpec(
        name: "manual",
        abstract: "Print cellar's man page (roff), made from the same table as --help.",
        options: [format],
        discussion: """
            Read it with 'cellar manual | man -l -', or install it:
            cellar manual > /usr/local/share/man/man1/cellar.1
            """,
        examples: [
            .init("cellar manual | man -l -", "Read the man page without installing it."),
            .init("cellar manual --format markdown > docs/reference/commands.md", "Write the Markdown command reference."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        switch invocation.arguments.value(of: format) ?? "roff" {
        case "roff": try invocation.io.output.write(ManualPage.render(.cellar))
        case "markdown": try invocation.io.output.write(ReferencePage.render(.cellar))
        case let other: throw UsageError("option '--format' expects roff or markdown, not '\(other)'", command: spec.name)
        }
        return .success
    }
}
