import CellarKit

/// `cellar restore FILE`: replaces the database with a backup, checked first, copied under the lock.
enum RestoreCommand: Command {
    static let spec = CommandSpec(
        name: "restore", cluster: .needsBackupAPI,
        abstract: "Replace the database with a backup (checked with integrity_check, copied under the write lock).",
        arguments: [.init("file", help: "The backup: an SQLite database, such as one 'migrate --backup' wrote.")],
        discussion: """
            FILE must be an SQLite database whose PRAGMA integrity_check is ok. The copy uses the online
            backup API in one step while holding the database's write lock, so readers see the old
            database or the restored one. A database another process keeps locked past the busy timeout
            is an error, and it stays unchanged. A database that does not exist yet is created.
            """,
        examples: [
            .init(
                "cellar restore cellar.sqlite.20261129193648.v3.bak",
                "Check a backup with integrity_check, then copy it over the database.")
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let file = invocation.arguments.positionals[0]
        let source = try openChecked(file, opener: DatabaseOpener(invocation.configuration))
        let configuration = invocation.configuration
        let database = try DatabaseOpener(configuration).openOrCreate()
        if try database.isReadOnly {
            throw CommandFailure(message: "database '\(configuration.databasePath)' is read-only; nothing was changed")
        }
        do {
            try database.restore(from: source)
        } catch let error as SQLiteError where error.isLockContention {
            throw CommandFailure(
                message: FlagAdvice.lockedMessage(
                    path: configuration.databasePath, timeout: configuration.busyTimeout, consequence: "nothing was changed"))
        }
        if !configuration.isQuiet {
            let version = try Migrator(database: database, migrations: []).currentVersion()
            try invocation.io.printOutput(
                ControlCharacterEscaping.escape("restored \(configuration.databasePath) from \(file); now at version \(version)"))
        }
        return .success
    }

    /// `file` opened read-only after checking it is a sound SQLite database.
    private static func openChecked(_ file: String, opener: DatabaseOpener) throws -> Database {
        guard DatabaseFile.exists(file) else { throw CommandFailure(message: "no backup at '\(file)'") }
        guard DatabaseFile.hasSQLiteHeader(file) else {
            throw CommandFailure(
                message: "'\(file)' is not an SQLite database file (it does not start with SQLite's header: it is empty, "
                    + "cut short or something else); nothing was changed")
        }
        do {
            let source = try Database(path: file, options: opener.options(mode: .readOnly, defensive: true))
            let rows = try source.query("PRAGMA integrity_check")
            guard rows.count == 1, rows[0][0] == .text("ok") else {
                let first = if case .text(let message) = rows.first?[0] { message } else { "no result" }
                throw CommandFailure(message: "'\(file)' fails integrity_check (\(first)); nothing was changed")
            }
            return source
        } catch let error as SQLiteError {
            throw CommandFailure(message: "'\(file)' is not a usable SQLite database: \(error.message); nothing was changed")
        }
    }
}
