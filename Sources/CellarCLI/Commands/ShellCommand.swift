import CellarKit

/// `cellar shell`: the interactive SQL shell, or a statement runner when standard input is not a
/// terminal.
enum ShellCommand: Command {
    static let spec = CommandSpec(
        name: "shell",
        abstract: "Explore the database in an interactive SQL shell.",
        options: [
            OptionSpec("safe", help: "Refuse readfile, writefile, ATTACH, VACUUM INTO, .open, .output and .read."),
            OptionSpec("bail", help: "Stop at the first error (piped input and .read files)."),
        ],
        discussion: """
            Statements run when sqlite3_complete says they are complete; .help lists the dot-commands.
            When standard input is not a terminal, statements are read from it without prompts, errors
            name their input line, and the exit status is 1 if any statement failed.
            """)

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let io = invocation.io
        let arguments = invocation.arguments
        let database = try DatabaseOpener(invocation.configuration).openOrCreate(
            defensive: true, fileFunctions: true, safe: arguments.has("safe"))
        let settings = ShellSettings(
            isInputTerminal: io.isInputTerminal, isOutputTerminal: io.isOutputTerminal, bails: arguments.has("bail"),
            isSafe: arguments.has("safe"))
        let session = try ShellSession(
            database: database, io: io, settings: settings, configuration: invocation.configuration)
        if io.isInputTerminal {
            try InteractiveShell(session: session).run()
        } else {
            _ = session.runLines(of: LineReader(io.input), path: "<stdin>")
            if (try? session.database.isAutocommit) == false { _ = session.requestQuit() }
        }
        session.finish()
        // At a terminal the errors were seen as they happened; quitting is a success (as in sqlite3).
        return session.hadError && !io.isInputTerminal ? .failure : .success
    }
}
