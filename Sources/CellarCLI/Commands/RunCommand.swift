import CellarKit
import Glibc

/// `cellar run FILE… | -`: runs SQL scripts, each in one transaction unless `--autocommit`.
enum RunCommand: Command {
    static let autocommit = OptionSpec(
        "autocommit", help: "Run statement by statement like the sqlite3 CLI (for scripts with their own BEGIN/COMMIT).")
    static let safe = OptionSpec("safe", help: "Refuse readfile, writefile, ATTACH and VACUUM INTO.")

    static let spec = CommandSpec(
        name: "run", cluster: .runs,
        abstract: "Run SQL scripts, each in one transaction (all or nothing).",
        arguments: [.init("file", help: "Script files to run in order; '-' reads standard input.", repeatable: true)],
        options: [autocommit, safe] + RenderOptionParsing.options,
        discussion: """
            Scripts are streamed: a script of any size runs in bounded memory. Each file runs in one
            transaction; on the first error it is rolled back, the error is shown as path:line:column
            with the source line, and later files do not run (earlier files stay committed). A script
            that manages its own transactions (a .dump begins with BEGIN TRANSACTION) needs --autocommit.
            Rows returned by statements in a script are printed as query prints them.
            The database is created if it does not exist.
            """,
        examples: [
            .init("cellar run fixes/backfill.sql", "Run a script in one transaction: all of it or, on an error, none of it."),
            .init("cellar run --autocommit dump.sql", "Run a script that has its own BEGIN/COMMIT, such as a dump."),
            .init("cellar run - < fix.sql", "Read the script from standard input."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let arguments = invocation.arguments
        let options = try RenderOptionParsing.renderOptions(arguments, io: invocation.io, command: spec.name)
        let scripts = try openAll(arguments.positionals, io: invocation.io)
        defer { for script in scripts where script.path != "-" { close(script.descriptor) } }
        if arguments.has(Self.safe), !invocation.configuration.address.setsUpItsConnection {
            throw CommandFailure(
                message: "run --safe is not available on a dqlite database: cellar cannot install SQLite's authorizer "
                    + "on the cluster's nodes")
        }
        let created = invocation.configuration.address.missingFile
        let renderer = ResultRenderer(sink: invocation.io.output, options: options)
        do {
            let openingFile = { try openForRun(invocation) }
            let status = try MigrationSession(invocation).withConnection(guarded: true, openingFile: openingFile) { connection in
                let runOptions = ScriptRunner.Options(
                    isTransactional: !arguments.has(Self.autocommit), isSafe: arguments.has(Self.safe))
                let runner = ScriptRunner(connection: connection, options: runOptions)
                let progress = ProgressLine.forTerminal(invocation).map { RunProgress(line: $0, runner: runner) }
                defer { progress?.clear() }
                return try runAll(scripts, renderer: renderer, io: invocation.io, progress: progress) { source, path in
                    try runner.run(source, path: path, rowsOfAnyEngine: { try renderer.render(statement: $0) })
                }
            }
            try renderer.flush()
            return status
        } catch {
            // The rows printed before the failure are part of what happened.
            try? renderer.flush()
            if let created { DatabaseFile.removeIfEmpty(created) }
            throw error
        }
    }

    /// The database file, created when missing, refused when SQLite opened it read-only.
    private static func openForRun(_ invocation: Invocation) throws -> Database {
        let database = try DatabaseOpener(invocation.configuration).openOrCreate(fileFunctions: true)
        // SQLite opens a file it may not write read-only without a word, and a script would then run
        // its statements up to the first write: refuse before any runs.
        if try database.isReadOnly {
            throw CommandFailure(
                message: "database '\(invocation.configuration.databasePath)' is read-only; no statement was run")
        }
        return database
    }

    /// Runs each script with `run` (its source and path), stopping at the first that fails.
    private static func runAll(
        _ scripts: [(path: String, descriptor: Int32)], renderer: ResultRenderer, io: IO, progress: RunProgress?,
        run: (_ source: any ByteSource, _ path: String) throws -> Void
    ) throws -> ExitStatus {
        var finished: [String] = []
        for script in scripts {
            var source: any ByteSource =
                script.path == "-" ? io.input : FileDescriptorSource(descriptor: script.descriptor)
            if let progress {
                source = progress.watching(source, path: script.path, size: ProgressLine.size(of: script.descriptor))
            }
            do {
                try run(source, script.path)
            } catch var diagnostic as Diagnostic {
                progress?.clear()
                try? renderer.flush()
                if !finished.isEmpty {
                    diagnostic.notes.append("earlier scripts stay applied: \(finished.joined(separator: ", "))")
                }
                throw diagnostic
            }
            finished.append(script.path)
        }
        return .success
    }

    /// Opens every script before any runs, so that a mistyped name runs nothing.
    private static func openAll(_ paths: [String], io: IO) throws -> [(path: String, descriptor: Int32)] {
        var opened: [(path: String, descriptor: Int32)] = []
        for path in paths {
            if path == "-" {
                opened.append((path, -1))
                continue
            }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                for script in opened where script.path != "-" { close(script.descriptor) }
                throw CommandFailure(message: "cannot open script '\(path)': \(reason)")
            }
            var status = stat()
            if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                close(descriptor)
                for script in opened where script.path != "-" { close(script.descriptor) }
                throw CommandFailure(message: "'\(path)' is a directory, not a script")
            }
            opened.append((path, descriptor))
        }
        return opened
    }
}
