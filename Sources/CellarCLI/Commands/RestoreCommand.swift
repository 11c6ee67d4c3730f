import CellarKit
import Glibc

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
            is an error, and it stays unchanged. A database that does not exist yet is created with the
            backup's permissions. SIGINT or SIGTERM during the copy rolls it back (exit 130 or 143).
            """,
        examples: [
            .init(
                "cellar restore cellar.sqlite.20261129193648.v3.bak",
                "Check a backup with integrity_check, then copy it over the database.")
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let file = invocation.arguments.positionals[0]
        let configuration = invocation.configuration
        let address = configuration.databasePath
        try refuseRestoringOntoItself(file, address: address)
        let source = try openChecked(file, opener: DatabaseOpener(configuration))
        try createMissingDatabase(address, withModeOf: file)
        let database = try DatabaseOpener(configuration).openOrCreate()
        if try database.isReadOnly {
            throw CommandFailure(message: "database '\(address)' is read-only; nothing was changed")
        }
        guard case .integer(let sourcePageSize) = try source.scalar("PRAGMA page_size") else {
            throw CommandFailure(message: "cannot read the page size of '\(file)'")
        }
        let pageSize = Int(sourcePageSize)
        let progress = ProgressLine.forTerminal(invocation)
        defer { progress?.clear() }
        let status = try SignalWatcher.shared.guarding(database, io: invocation.io) {
            do {
                try database.restore(from: source) { copied, total in
                    progress?.update { seconds in
                        ProgressLine.text("restore \(file)", bytes: copied * pageSize, of: total * pageSize, seconds: seconds)
                    }
                }
                progress?.clear()
            } catch let error as SQLiteError where error.isLockContention {
                throw CommandFailure(
                    message: FlagAdvice.lockedMessage(
                        path: address, timeout: configuration.busyTimeout, consequence: "nothing was changed"))
            } catch let error as SQLiteError where error.resultCode == .interrupt {
                throw CommandFailure(message: "interrupted; the restore was rolled back: '\(address)' is unchanged")
            }
            return ExitStatus.success
        }
        if !configuration.isQuiet {
            let version = try Migrator(database: database, migrations: []).currentVersion()
            try invocation.io.printOutput(
                ControlCharacterEscaping.escape("restored \(address) from \(file); now at version \(version)"))
        }
        return status
    }

    /// Refuses a backup that is the database's own file (the same path, or a link to it): copying it
    /// onto itself would wait for its own read lock, and there is nothing to restore.
    private static func refuseRestoringOntoItself(_ file: String, address: String) throws {
        guard let path = DatabaseFile.path(of: address) else { return }
        var backup = stat()
        var database = stat()
        guard stat(file, &backup) == 0, stat(path, &database) == 0, backup.st_dev == database.st_dev,
            backup.st_ino == database.st_ino
        else { return }
        throw CommandFailure(
            message: "'\(file)' is the database '\(address)' itself; there is nothing to restore and nothing was changed")
    }

    /// Creates a database that does not exist yet, empty, with the backup's permissions, before SQLite
    /// creates it with the default ones: a restored private database stays private.
    private static func createMissingDatabase(_ address: String, withModeOf file: String) throws {
        guard let path = DatabaseFile.missingFile(of: address) else { return }
        var backup = stat()
        guard stat(file, &backup) == 0 else { return }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return }
            throw CommandFailure(message: "cannot create '\(path)': \(String(cString: strerror(errno))); nothing was changed")
        }
        defer { close(descriptor) }
        guard fchmod(descriptor, backup.st_mode & 0o7777) == 0 else {
            throw CommandFailure(message: "cannot set the mode of '\(path)': \(String(cString: strerror(errno)))")
        }
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
