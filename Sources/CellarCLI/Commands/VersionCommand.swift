/// `cellar version`: prints the version of cellar and of the SQLite library, as `--version` does
/// (the spelling dbmate, goose and golang-migrate users type).
enum VersionCommand: Command {
    static let spec = CommandSpec(
        name: "version", abstract: "Show the version of cellar and of the SQLite library (as --version, -V, -v).",
        examples: [.init("cellar version", "Print cellar's version and the SQLite library's.")])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        try invocation.io.printOutput(VersionInfo.text)
        return .success
    }
}
