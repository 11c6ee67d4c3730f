import CellarKit

/// `cellar manual`: prints the man page (roff), generated from the command table `--help` reads.
enum ManualCommand: Command {
    static let spec = CommandSpec(
        name: "manual",
        abstract: "Print cellar's man page (roff), made from the same table as --help.",
        discussion: """
            Read it with 'cellar manual | man -l -', or install it:
            cellar manual > /usr/local/share/man/man1/cellar.1
            """)

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        try invocation.io.output.write(ManualPage.render(.cellar))
        return .success
    }
}
