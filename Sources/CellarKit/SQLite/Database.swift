internal import CSQLite

/// A connection to one SQLite database.
///
/// The connection closes when the object is released (or explicitly with ``close()``). Extended result
/// codes are always on and extension loading is always off. `Database` is not `Sendable`: use it from
/// one thread; only ``interrupter`` may be handed to another.
///
/// ```swift
/// let db = try Database(path: "wine.sqlite")
/// try db.execute("CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT)")
/// try db.execute("INSERT INTO wineries (name) VALUES (?)", ["O'Brien"])
/// let rows = try db.query("SELECT name FROM wineries")
/// ```
public final class Database {
    /// How the database file is opened.
    public enum OpenMode: Sendable {
        /// Read only; fails if the file does not exist.
        case readOnly
        /// Read and write; fails if the file does not exist.
        case readWrite
        /// Read and write, creating the file if it does not exist.
        case readWriteCreate
    }

    /// How a connection is set up: the one place that says what a connection has — how the file is
    /// opened, its lock timeout, its safety settings, its extensions and SQL functions.
    ///
    /// Every connection cellar opens is set up from one of these, including the in-memory copy a dry
    /// run rehearses on (``Migrator/plan(_:)``), so a copy has what the original has.
    ///
    /// ```swift
    /// var options = Database.Options(mode: .readOnly, isDefensive: true)
    /// options.extensions = ["/usr/lib/sqlite3/pcre.so"]
    /// options.functions = [SQLFunction("shout", argumentCount: 1) { arguments in .text("\\(arguments[0])!") }]
    /// let db = try Database(path: "wine.sqlite", options: options)
    /// ```
    public struct Options: Sendable {
        /// How the file is opened.
        public var mode: OpenMode
        /// How long, in milliseconds, to wait for another connection's lock before failing with `SQLITE_BUSY`.
        public var busyTimeout: Int32
        /// Turns on `SQLITE_DBCONFIG_DEFENSIVE`, for database files that may come from anyone
        /// (<https://sqlite.org/security.html>).
        public var isDefensive: Bool
        /// Whether schema objects (views, triggers, indexes on expressions) may call SQL functions
        /// not marked innocuous, such as `json_extract` (`SQLITE_DBCONFIG_TRUSTED_SCHEMA`). On by
        /// default, as in SQLite, so that every database SQLite opens also opens here; off for files
        /// that may be hostile (<https://sqlite.org/c3ref/c_dbconfig_defensive.html>).
        public var trustsSchema: Bool
        /// Shared libraries loaded as SQLite extensions when the connection opens, through the C API
        /// only: the SQL function `load_extension()` stays unavailable (<https://sqlite.org/loadext.html>).
        public var extensions: [String]
        /// SQL functions implemented in Swift, registered when the connection opens.
        public var functions: [SQLFunction]
        /// Whether `readfile(path)` and `writefile(path, data)` are registered (direct-only); off unless asked.
        public var registersFileFunctions: Bool
        /// Whether the connection refuses, for its whole life, what reaches outside the database:
        /// `readfile`, `writefile`, `load_extension`, `ATTACH` and `VACUUM INTO` (as `sqlite3 -safe`).
        public var isSafe: Bool
        /// The name of a registered VFS to open the file through, or nil for the default one
        /// (<https://sqlite.org/vfs.html>); fault-injection tests use their own.
        public var vfsName: String?
        /// Whether the last connection to a WAL database checkpoints it into the database file and
        /// deletes the `-wal` file when it closes (SQLite's default); off for a connection that must
        /// leave the files as it found them (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`,
        /// <https://sqlite.org/c3ref/c_dbconfig_defensive.html>).
        public var checkpointsOnClose = true

        /// Creates options; the defaults create the file if missing, wait 5 seconds for locks, and
        /// register nothing.
        public init(
            mode: OpenMode = .readWriteCreate, busyTimeout: Int32 = 5000, isDefensive: Bool = false, trustsSchema: Bool = true,
            extensions: [String] = [], functions: [SQLFunction] = [], registersFileFunctions: Bool = false,
            isSafe: Bool = false, vfsName: String? = nil
        ) {
            self.mode = mode
            self.busyTimeout = busyTimeout
            self.isDefensive = isDefensive
            self.trustsSchema = trustsSchema
            self.extensions = extensions
            self.functions = functions
            self.registersFileFunctions = registersFileFunctions
            self.isSafe = isSafe
            self.vfsName = vfsName
        }
    }

    /// The `sqlite3 *` handle; nil once closed.
    private(set) var handle: OpaquePointer?

    /// The longest string or blob this connection allows, in bytes (`SQLITE_LIMIT_LENGTH`,
    /// <https://sqlite.org/c3ref/limit.html>); 0 when the connection is closed.
    package var lengthLimit: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, -1))
    }
    /// The path or URI the connection was opened with.
    public let path: String
    /// How the connection was set up.
    public let options: Options
    /// Keeps registered SQL functions' closures alive as long as the connection.
    var functionBoxes: [AnyObject] = []
    /// Keeps the trace closure alive as long as the connection.
    var callbackBoxes: [String: AnyObject] = [:]
    /// The app's progress handler and, while it works, cellar's.
    let progressHandlers = ProgressHandlers()
    /// The app's authorizer and cellar's policies, all consulted by the one SQLite authorizer.
    let authorizers = AuthorizerChain()
    /// The folder `readfile`/`writefile` resolve relative paths against (nil: the working directory),
    /// or `.none` when the connection does not have them.
    var fileFunctionsFolder: String?? = .none
    /// The policy of ``Options/isSafe``, installed for the connection's life; it remembers its last refusal.
    package private(set) var safeModePolicy: ConnectionPolicy?
    /// The statements ``executeReused(_:_:)`` keeps, by their text, until ``releaseReusedStatements()``
    /// or until the connection closes.
    var reusedStatements: [String: OpaquePointer] = [:]
    /// When set, scripts and migrations stop before their next statement (see ``CancellationFlag``).
    public var cancellation: CancellationFlag?
    /// How long the connection waits for another connection's lock now, in milliseconds: the
    /// options' until ``setBusyTimeout(_:)`` changes it.
    package private(set) lazy var busyTimeout: Int32 = options.busyTimeout

    /// Opens (or creates) a database.
    ///
    /// `path` may be a `file:` URI (<https://sqlite.org/uri.html>), `:memory:`, or an empty string for a
    /// private temporary database.
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is not a database.
    public init(path: String, options: Options = Options()) throws {
        self.path = path
        self.options = options
        var flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        switch options.mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var opened: OpaquePointer?
        // SQLite's error log can be routed only before SQLite starts: the first connection does it.
        _ = SQLiteLog.isInstalled
        let code = sqlite3_open_v2(path, &opened, flags, options.vfsName)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError.read(from: opened, code: code)
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        sqlite3_extended_result_codes(opened, 1)
        try configure(options)
    }

    deinit {
        for statement in reusedStatements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    private func configure(_ options: Options) throws {
        try check(cellar_db_config_int(handle, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nil))
        try check(sqlite3_busy_timeout(handle, options.busyTimeout))
        try check(cellar_db_config_int(handle, SQLITE_DBCONFIG_DEFENSIVE, options.isDefensive ? 1 : 0, nil))
        try check(cellar_db_config_int(handle, SQLITE_DBCONFIG_TRUSTED_SCHEMA, options.trustsSchema ? 1 : 0, nil))
        for path in options.extensions { try loadExtension(path) }
        for function in options.functions { try register(function) }
        if options.registersFileFunctions { try registerFileFunctions() }
        if !options.checkpointsOnClose { try check(cellar_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nil)) }
        if options.isSafe {
            let policy = ConnectionPolicy(refusesTransactionControl: false, isSafe: true)
            try addPolicy(policy)
            safeModePolicy = policy
        }
    }

    /// Closes the connection now.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_BUSY`) if a ``Statement`` of this connection is still alive;
    ///   the connection then stays open.
    public func close() throws {
        guard let handle else { return }
        releaseReusedStatements()
        let code = sqlite3_close(handle)
        guard code == SQLITE_OK else { throw SQLiteError.read(from: handle, code: code) }
        self.handle = nil
    }

    /// The open handle, or an error saying the connection was closed.
    func openHandle() throws -> OpaquePointer {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "the database connection is closed") }
        return handle
    }

    /// Throws the connection's current error unless `code` is `SQLITE_OK`.
    func check(_ code: Int32, sql: String? = nil) throws {
        guard code != SQLITE_OK else { return }
        throw SQLiteError.read(from: handle, code: code, sql: sql)
    }

    // MARK: - State

    /// The rowid of the most recent successful `INSERT`.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_MISUSE`) once the connection is closed, like every other use.
    public var lastInsertRowID: Int64 { get throws { sqlite3_last_insert_rowid(try openHandle()) } }

    /// Rows changed by the most recent `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int { get throws { Int(sqlite3_changes64(try openHandle())) } }

    /// Rows changed since the connection opened.
    public var totalChanges: Int { get throws { Int(sqlite3_total_changes64(try openHandle())) } }

    /// Whether the connection is in autocommit mode, that is, outside any explicit transaction.
    public var isAutocommit: Bool { get throws { sqlite3_get_autocommit(try openHandle()) != 0 } }

    /// Whether the connection holds the main database's write lock: a write transaction is open there.
    public var holdsWriteLock: Bool { get throws { sqlite3_txn_state(try openHandle(), "main") == SQLITE_TXN_WRITE } }

    /// Whether the main database was opened read-only (or is a read-only file).
    public var isReadOnly: Bool { get throws { sqlite3_db_readonly(try openHandle(), "main") == 1 } }

    /// Changes how long the connection waits for another connection's lock, in milliseconds.
    public func setBusyTimeout(_ milliseconds: Int32) throws {
        try check(sqlite3_busy_timeout(try openHandle(), milliseconds))
        busyTimeout = milliseconds
    }

    /// The version of the SQLite library in use, such as `3.40.1`.
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// Whether `sql` ends with a complete statement, as the sqlite3 shell decides when to run input
    /// (<https://sqlite.org/c3ref/complete.html>).
    public static func isComplete(_ sql: String) -> Bool { sqlite3_complete(sql) != 0 }
}

@available(*, unavailable)
extension Database: Sendable {}
