import CellarKit
import Glibc

/// `cellar shell`: the interactive SQL shell, or a statement runner when standard input is not a
/// terminal.
enum ShellCommand: Command {
    static let initFile = OptionSpec(
        "init", value: "file", help: "Run FILE's statements and dot-commands first, instead of ~/.cellarrc (not with --safe).")
    static let safe = OptionSpec(
        "safe", help: "Refuse readfile, writefile, ATTACH, VACUUM INTO and the dot-commands that touch files (above).")
    static let bail = OptionSpec("bail", help: "Stop at the first error (piped input and .read files).")

    static let spec = CommandSpec(
        name: "shell", cluster: .runs,
        abstract: "Explore the database in an interactive SQL shell.",
        arguments: [
            .init("file", help: "The database to open (as -d FILE; as in 'sqlite3 FILE').", optional: true),
            .init(
                "sql", help: "Run these statements or dot-commands, then exit (as 'sqlite3 FILE SQL').", optional: true,
                repeatable: true, completion: ValueCompletion.none),
        ],
        options: [initFile, safe, bail] + SQLite3Options.options,
        conflicts: [
            .init(safe, initFile, because: "--init cannot be used with --safe (a start-up file could undo its refusals)")
        ],
        discussion: helpDiscussion,
        examples: [
            .init("cellar shell", "Open the interactive shell on cellar.sqlite (or -d, CELLAR_DATABASE, DATABASE_URL)."),
            .init("cellar shell winery.sqlite", "Open a file, as 'sqlite3 FILE' does."),
            .init("cellar shell -csv -header winery.sqlite 'SELECT * FROM wine'", "Run one query, as sqlite3 does, and exit."),
            .init(
                "cellar shell --safe downloaded.sqlite",
                "Look into a database from elsewhere: no file access, trusted_schema off."),
            .init("cellar shell --readonly winery.sqlite", "Explore without any chance of writing; the file must exist."),
        ])

    /// The help's paragraphs; the refused dot-commands are read from their rows, so the lists cannot drift.
    private static var helpDiscussion: String {
        let onCluster = DotCommandCatalog.prose(DotCommandCatalog.refusedOnCluster + ["--safe"])
        let whenSafe = DotCommandCatalog.prose(DotCommandCatalog.refusedWhenSafe)
        return [
            """
            Statements run when sqlite3_complete says they are complete; .help lists the dot-commands.
            When standard input is not a terminal, statements are read from it without prompts, errors
            name their input line, and the exit status is 1 if any statement failed. ~/.cellarrc, when
            it exists, runs first (never with --safe).
            """,
            HelpFormatter.wrapped(
                "On a dqlite database (-d dqlite://HOST:PORT,…/NAME, or that URL as FILE) statements run on the"
                    + " cluster's leader with the same output; \(onCluster) say why they cannot."),
            HelpFormatter.wrapped("--safe refuses readfile, writefile, ATTACH, VACUUM INTO, .pager COMMAND and \(whenSafe)."),
            """
            sqlite3's options work with one dash or two (-csv, -header, -cmd '.mode box', …); with SQL
            after FILE, each argument runs in turn, the first error stops them, and the shell exits.
            """,
        ].joined(separator: "\n\n")
    }

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        var io = invocation.io
        let arguments = invocation.arguments
        // The last of -batch and -interactive wins, as in sqlite3.
        switch arguments.lastFlag(of: SQLite3Options.batch, SQLite3Options.interactive) {
        case SQLite3Options.batch?: io.isInputTerminal = false
        case SQLite3Options.interactive?: io.isInputTerminal = true
        default: break
        }
        var configuration = invocation.configuration
        if let file = arguments.positionals.first {
            guard arguments.value(of: GlobalOptions.database.option) == nil else {
                throw UsageError("give the database once: as FILE or with --database, not both", command: spec.name)
            }
            configuration.databasePath = file
            // `cellar shell dqlite://…` goes the way `-d dqlite://…` does (its refusals, its cluster errors).
            if invocation.configuration.databasePath != file,
                let status = try configuration.address.runIfCluster(
                    self, Invocation(arguments: arguments, configuration: configuration, io: io))
            {
                return status
            }
        }
        let path = configuration.databasePath
        let isNew = configuration.address.missingFile != nil
        let connection = try open(
            configuration, invocation: Invocation(arguments: arguments, configuration: configuration, io: io))
        let settings = ShellSettings(
            isInputTerminal: io.isInputTerminal, isOutputTerminal: io.isOutputTerminal, bails: arguments.has(Self.bail),
            isSafe: arguments.has(Self.safe))
        let session = try ShellSession(connection: connection, io: io, settings: settings, configuration: configuration)
        if let startup = startupFile(arguments, environment: io.environment) {
            session.runStartupFile(startup)
        }
        try SQLite3Options.apply(arguments, to: session)
        for (index, command) in arguments.values(of: SQLite3Options.cmd).enumerated() {
            guard session.runLines(of: LineReader(BufferSource(command + "\n")), path: "<-cmd \(index + 1)>") == .proceed,
                !session.hadError || !session.settings.bails
            else {
                return try finish(session, status: session.requestedExitStatus == nil ? .failure : .success)
            }
        }
        let statements = arguments.positionals.dropFirst()
        if !statements.isEmpty {
            // As `sqlite3 FILE SQL…`: each argument in turn; the first that fails stops the rest.
            for (index, text) in statements.enumerated() {
                let flow = session.runLines(of: LineReader(BufferSource(text + "\n")), path: "<argument \(index + 2)>")
                if flow == .stop || session.hadError { break }
            }
            return try finish(session, status: session.hadError ? .failure : .success)
        } else if io.isInputTerminal {
            let shown = ControlCharacterEscaping.escape(path)
            let opened =
                isNew ? "opened \(shown): a new, empty database (the file did not exist)" : "opened \(shown)"
            try InteractiveShell(session: session, openedLine: opened).run()
        } else {
            _ = session.runLines(of: LineReader(io.input), path: "<stdin>")
            if (try? session.connection.isAutocommit) == false { _ = session.requestQuit() }
        }
        // At a terminal the errors were seen as they happened; quitting is a success (as in sqlite3).
        return try finish(session, status: session.hadError && !io.isInputTerminal ? .failure : .success)
    }

    /// Closes the session's output; the status `.exit CODE` asked for, else `status`.
    private static func finish(_ session: ShellSession, status: ExitStatus) throws -> ExitStatus {
        session.finish()
        if let requested = session.requestedExitStatus { throw RequestedExit(status: requested) }
        return status
    }

    /// The database file (created when missing; read-only with `--readonly`), or the dqlite database
    /// through its cluster's leader.
    private static func open(_ configuration: Configuration, invocation: Invocation) throws -> any SQLConnection {
        let isSafe = invocation.arguments.has(Self.safe)
        if isSafe, !configuration.address.setsUpItsConnection {
            throw CommandFailure(
                message: "shell --safe is not available on a dqlite database: cellar cannot install SQLite's "
                    + "authorizer on the cluster's nodes")
        }
        let opener = DatabaseOpener(configuration)
        let mode: Database.OpenMode = invocation.arguments.has(SQLite3Options.readOnly) ? .readOnly : .readWriteCreate
        return try opener.connect(
            configuration.databasePath, options: opener.options(mode: mode, defensive: true, fileFunctions: true, safe: isSafe),
            preparingFile: SQLArchiveFunctions.register)
    }

    /// `--init FILE`, else `~/.cellarrc` when it exists; none with `--safe`.
    private static func startupFile(_ arguments: ParsedArguments, environment: [String: String]) -> String? {
        guard !arguments.has(Self.safe) else { return nil }
        if let path = arguments.value(of: Self.initFile) { return path }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        let path = (home.hasSuffix("/") ? home : home + "/") + ".cellarrc"
        return access(path, F_OK) == 0 ? path : nil
    }
}
