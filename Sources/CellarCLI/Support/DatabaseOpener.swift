import CellarDqlite
import CellarKit
import Glibc

/// The one way the CLI opens a database: every command, the shell's `.open` and the dry run's copy get
/// their connection from ``options(mode:defensive:fileFunctions:safe:)``, so each has the configured
/// busy timeout and `--load-extension` libraries, and the errors a user can act on.
struct DatabaseOpener {
    let configuration: Configuration

    init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// How a connection is set up for a command: defensive for files that may come from anyone, the file
    /// functions where SQL may load or save files, and `--safe` (trusted_schema off, the refusals).
    func options(
        mode: Database.OpenMode, defensive: Bool = false, fileFunctions: Bool = false, safe: Bool = false
    ) -> Database.Options {
        Database.Options(
            mode: mode, busyTimeout: configuration.busyTimeout, isDefensive: defensive, trustsSchema: !safe,
            extensions: configuration.extensions, registersFileFunctions: fileFunctions, isSafe: safe)
    }

    /// Opens the database, creating it when missing (`setup`, `migrate`, `shell`).
    func openOrCreate(defensive: Bool = false, fileFunctions: Bool = false, safe: Bool = false) throws -> Database {
        try open(
            configuration.databasePath,
            options: options(mode: .readWriteCreate, defensive: defensive, fileFunctions: fileFunctions, safe: safe))
    }

    /// Opens a database that must already exist (`query`, `status`): a mistyped path is an error, not
    /// a new empty file. `readOnly` opens it so that every write fails (`--readonly`).
    func openExisting(defensive: Bool = false, fileFunctions: Bool = false, safe: Bool = false, readOnly: Bool = false)
        throws -> Database
    {
        let path = configuration.databasePath
        if !path.hasPrefix("file:"), path != ":memory:", access(path, F_OK) != 0 {
            throw CommandFailure(message: "no database at '\(path)' (run 'cellar setup' to create it, or pass --database)")
        }
        let mode: Database.OpenMode = readOnly ? .readOnly : .readWrite
        return try open(path, options: options(mode: mode, defensive: defensive, fileFunctions: fileFunctions, safe: safe))
    }

    /// Opens the database to read it, or an empty in-memory one set up the same way when the file does
    /// not exist yet, so that `status` and `--dry-run` never create it.
    func openForReading() throws -> Database {
        let path = configuration.databasePath
        try Self.refuseCompanion(path)
        guard path.hasPrefix("file:") || path == ":memory:" || access(path, F_OK) == 0 else {
            return try open(":memory:", options: options(mode: .readWriteCreate))
        }
        // Read-write (SQLite falls back to read-only for a write-protected file) so that a hot journal
        // left by a crashed writer can be rolled back; a read-only connection cannot.
        return try open(path, options: options(mode: .readWrite))
    }

    /// Opens the database for a dry run to read and copy: read-only, and without the checkpoint the last
    /// connection to a WAL database makes on close, so that the file and its `-wal` stay byte for byte
    /// as they were; an empty in-memory one when the file does not exist yet.
    func openForRehearsal() throws -> Database {
        let path = configuration.databasePath
        try Self.refuseCompanion(path)
        guard path.hasPrefix("file:") || path == ":memory:" || access(path, F_OK) == 0 else {
            return try open(":memory:", options: options(mode: .readWriteCreate))
        }
        return try openForRehearsal(at: path)
    }

    /// Opens the database file at `path` read-only, without the checkpoint on close, so that it stays
    /// byte for byte as it was (`lint --against`, `test --against`).
    func openForRehearsal(at path: String) throws -> Database {
        var options = options(mode: .readOnly)
        options.checkpointsOnClose = false
        return try open(path, options: options)
    }

    /// Opens `path` on the engine its address names (``DatabaseAddress``): a file with `options`, then
    /// `preparingFile` run on it (what only a local connection can be given, such as SQL functions); a
    /// `dqlite://` URL through its cluster's leader, waiting at most the busy timeout for one (the one way
    /// cellar connects to a cluster).
    ///
    /// - Throws: ``UsageError`` for a `dqlite://` URL that does not parse.
    func connect(
        _ path: String, options: Database.Options, preparingFile: (Database) throws -> Void = { _ in }
    ) throws -> any SQLConnection {
        switch DatabaseAddress(path) {
        case .file(let path):
            let database = try open(path, options: options)
            try preparingFile(database)
            return database
        case .cluster(let url):
            return try Self.connectToCluster(url, busyTimeout: configuration.busyTimeout)
        }
    }

    /// The dqlite database at `url`, through its cluster's leader, waiting at most `busyTimeout`
    /// milliseconds for one.
    ///
    /// - Throws: ``UsageError`` when `url` does not parse.
    static func connectToCluster(_ url: String, busyTimeout: Int32) throws -> RemoteConnection {
        let parsed: DqliteURL
        do {
            parsed = try DqliteURL(url)
        } catch {
            throw UsageError(error.description)
        }
        return try RemoteConnection(try RemoteDatabase(parsed, busyTimeout: Int(busyTimeout)))
    }

    /// Refuses `path` when it is the `-wal`, `-shm` or `-journal` file of an existing database: SQLite
    /// opens an empty one (an idle database's `-wal`) as an empty database, or creates it, and writing
    /// into a live database's write-ahead log corrupts that database at its next checkpoint. A fleet
    /// refuses such an entry the same way (``DatabaseList``).
    static func refuseCompanion(_ path: String) throws {
        guard let (main, role) = DatabaseList.mainDatabase(ofCompanion: Array(path.utf8)) else { return }
        let name = String(decoding: main, as: UTF8.self)
        throw CommandFailure(
            message: "'\(path)' is the \(role) of the database '\(name)', not a database; it was not opened "
                + "(name '\(name)' instead)")
    }

    /// `SQLITE_READONLY_ROLLBACK` (<https://sqlite.org/rescode.html#readonly_rollback>): a read-only
    /// connection found a hot journal it may not roll back.
    private static let readOnlyRollback = SQLiteError.ResultCode.readOnly.rawValue | (3 << 8)

    /// Opens `path` with `options`, reading the schema at once so that a file that is not a database,
    /// or whose schema `--safe` cannot trust, fails here with a clear message. Preparing a statement
    /// reads the schema (under a shared lock, rolling back a hot journal first); running it would take
    /// the lock a second time for nothing.
    func open(_ path: String, options: Database.Options) throws -> Database {
        try Self.refuseCompanion(path)
        if DirectoryListing.isDirectory(path) {
            throw CommandFailure(message: "'\(path)' is a directory, not a database file")
        }
        do {
            let database = try Database(path: path, options: options)
            _ = try database.prepare("SELECT count(*) FROM sqlite_schema")
            return database
        } catch let error as SQLiteError where error.message.hasPrefix("cannot load extension") {
            throw CommandFailure(message: error.message)
        } catch let error as SQLiteError where !options.trustsSchema && error.message.contains("unsafe use of") {
            throw CommandFailure(
                message: "cannot open database '\(path)' with --safe: \(error.message) (--safe does not trust functions "
                    + "called by the file's schema); if you trust the file, it opens without --safe")
        } catch let error as SQLiteError where options.mode == .readOnly && error.code == Self.readOnlyRollback {
            throw CommandFailure(
                message: "cannot read database '\(path)' read-only: it holds an unfinished write (a hot journal) that only "
                    + "a connection that may write can roll back; any command that writes (or 'cellar status') does so")
        } catch let error as SQLiteError where error.isLockContention {
            throw CommandFailure(
                message: FlagAdvice.lockedMessage(
                    path: path, timeout: options.busyTimeout, consequence: "cellar could not read its schema; nothing was changed"
                ))
        } catch let error as SQLiteError {
            throw CommandFailure(message: "cannot open database '\(path)': \(error.message)")
        }
    }
}
