import CellarKit
import Glibc

/// sqlite3's `.dump`, `.backup`, `.save` and `.restore`.
extension ShellSession {
    /// `.dump [--data-only] [PATTERN…]`: the database, or the tables matching the `LIKE` patterns, as
    /// SQL, written by CellarKit's dump engine (the one `cellar dump` uses).
    func dump(_ command: DotCommandLine) throws {
        var patterns: [String] = []
        var content = DumpOptions.Content.schemaAndData
        for argument in command.arguments {
            switch argument {
            case "--data-only", "-data-only": content = .dataOnly
            case "--schema-only", "-schema-only": content = .schemaOnly
            case let option where option.hasPrefix("-"):
                throw DotCommandError("unknown option '\(option)' (Usage: .dump [--data-only|--schema-only] [PATTERN…])")
            default: patterns.append(argument)
            }
        }
        try output.flush()
        let options = DumpOptions(tablePatterns: patterns, content: content, escapesControlCharacters: isOutputTerminal)
        do {
            try connection.dumpSQL(to: output, options: options)
        } catch let error as DumpError {
            throw DotCommandError(error.description)
        }
    }

    /// `.backup [main] FILE` and `.save FILE`: a consistent copy of the database made with SQLite's
    /// backup API, written beside FILE and renamed over it (so FILE is whole or untouched), with the
    /// database file's permissions.
    func backup(_ command: DotCommandLine) throws {
        var arguments = command.arguments
        if arguments.count == 2, arguments[0] == "main" { arguments.removeFirst() }
        guard arguments.count == 1, let path = arguments.first, !path.hasPrefix("-") else {
            throw DotCommandError("Usage: .\(command.name) " + (command.name == "backup" ? "[main] FILE" : "FILE"))
        }
        let temporary = path + ".cellar-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try database.backup(toFile: temporary, permissions: try databasePermissions())
            guard rename(temporary, path) == 0 else { throw SystemError(operation: "rename to \(path)", code: errno) }
        } catch let error as SQLiteError {
            unlink(temporary)
            throw DotCommandError("cannot back up to '\(path)': \(error.message)")
        } catch let error as SystemError {
            unlink(temporary)
            throw DotCommandError("cannot back up to '\(path)': \(error)")
        }
    }

    /// `.restore [main] FILE`: replaces the database's content with FILE's, with the backup API in one
    /// step under the write lock.
    func restore(_ command: DotCommandLine) throws {
        var arguments = command.arguments
        if arguments.count == 2, arguments[0] == "main" { arguments.removeFirst() }
        guard arguments.count == 1, let path = arguments.first else { throw DotCommandError("Usage: .restore [main] FILE") }
        guard DatabaseFile.exists(path) else { throw DotCommandError("cannot restore from '\(path)': no such file") }
        guard DatabaseFile.hasSQLiteHeader(path) else {
            throw DotCommandError(
                "cannot restore from '\(path)': it is not an SQLite database file (it does not start with SQLite's "
                    + "header); the database is unchanged")
        }
        do {
            let source = try Database(path: path, options: Database.Options(mode: .readOnly, isDefensive: true))
            try source.execute("SELECT count(*) FROM sqlite_schema")
            try database.restore(from: source)
        } catch let error as SQLiteError {
            throw DotCommandError("cannot restore from '\(path)': \(error.message); the database is unchanged")
        }
    }

    /// The mode bits of the main database's file, nil for a database without one.
    private func databasePermissions() throws -> UInt32? {
        guard case .text(let file) = try database.scalar("SELECT file FROM pragma_database_list WHERE name = 'main'"),
            !file.isEmpty
        else { return nil }
        var status = stat()
        guard stat(file, &status) == 0 else { return nil }
        return UInt32(status.st_mode) & 0o7777
    }
}
