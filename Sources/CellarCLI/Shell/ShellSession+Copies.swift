import CellarKit
import Glibc

/// sqlite3's `.dump`, `.backup`, `.save` and `.restore`.
extension ShellSession {
    /// `.dump [--data-only] [PATTERN…]`: the database, or the tables matching the `LIKE` patterns, as
    /// SQL, written by CellarKit's dump engine (the one `cellar dump` uses).
    static let dumpUsage = "[--data-only|--schema-only] [--preserve-rowids] [--newlines] [--nosys] [PATTERN…]"

    func dump(_ command: DotCommandLine) throws {
        var patterns: [String] = []
        var options = DumpOptions(escapesControlCharacters: isOutputTerminal)
        for argument in command.arguments {
            switch argument {
            case "--data-only", "-data-only": options.content = .dataOnly
            case "--schema-only", "-schema-only": options.content = .schemaOnly
            case "--preserve-rowids", "-preserve-rowids": options.preservesRowids = true
            case "--newlines", "-newlines": options.keepsNewlines = true
            case "--nosys", "-nosys": options.omitsSystemTables = true
            case let option where option.hasPrefix("-"):
                throw DotCommandError("unknown option '\(option)' (Usage: .dump \(Self.dumpUsage))")
            default: patterns.append(argument)
            }
        }
        try output.flush()
        options.tablePatterns = patterns
        do {
            try connection.dumpSQL(to: output, options: options)
        } catch let error as DumpError {
            throw DotCommandError(error.description)
        }
    }

    /// `.backup [main] FILE` and `.save FILE`: a consistent copy of the database made with SQLite's
    /// backup API, written beside FILE and renamed over it (so FILE is whole or untouched), with the
    /// database file's permissions from its creation on. A FIFO or a device gets the copy's bytes
    /// written into it (the copy made first in a private temporary file); a directory or a socket is
    /// refused.
    func backup(_ command: DotCommandLine) throws {
        var arguments = command.arguments
        if arguments.count == 2, arguments[0] == "main" { arguments.removeFirst() }
        guard arguments.count == 1, let path = arguments.first, !path.hasPrefix("-") else {
            throw DotCommandError("Usage: .\(command.name) " + (command.name == "backup" ? "[main] FILE" : "FILE"))
        }
        let kind = ReplacementFile.kind(path)
        if let kind, kind == S_IFDIR || kind == S_IFSOCK {
            throw DotCommandError(
                "cannot back up to '\(path)': it is \(kind == S_IFDIR ? "a directory" : "a socket"), not a file")
        }
        let isStream = kind == S_IFIFO || kind == S_IFCHR || kind == S_IFBLK
        let temporary =
            isStream
            ? temporaryFolder() + "/cellar-backup-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            : path + ".cellar-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { if isStream { unlink(temporary) } }
        do {
            try database.backup(toFile: temporary, permissions: isStream ? 0o600 : try databasePermissions())
            if isStream {
                try copyFile(temporary, into: path)
            } else {
                guard rename(temporary, path) == 0 else { throw SystemError(operation: "rename to \(path)", code: errno) }
            }
        } catch let error as SQLiteError {
            unlink(temporary)
            throw DotCommandError("cannot back up to '\(path)': \(error.message)")
        } catch let error as SystemError {
            unlink(temporary)
            throw DotCommandError("cannot back up to '\(path)': \(error)")
        } catch let error as CommandFailure {
            throw DotCommandError(error.message)
        }
    }

    /// `$TMPDIR`, or `/tmp`.
    private func temporaryFolder() -> String {
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        return folder.isEmpty ? "/tmp" : folder
    }

    /// Writes the bytes of the file at `source` into the FIFO or device at `target`.
    private func copyFile(_ source: String, into target: String) throws {
        let input = Glibc.open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw SystemError(operation: "open \(source)", code: errno) }
        defer { Glibc.close(input) }
        let output = try ReplacementFile(replacing: target)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw SystemError(operation: "read \(source)", code: errno) }
            if count == 0 { break }
            try chunk.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
        try output.commit()
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
        let opener = DatabaseOpener(configuration)
        let source: Database
        do {
            source = try opener.open(path, options: opener.options(mode: .readOnly, defensive: true))
        } catch let failure as CommandFailure {
            throw DotCommandError("cannot restore from '\(path)': \(failure.message); the database is unchanged")
        }
        do {
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
