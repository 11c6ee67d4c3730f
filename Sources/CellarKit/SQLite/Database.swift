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

    /// Options for opening a connection.
    public struct Options: Sendable {
        /// How the file is opened.
        public var mode: OpenMode
        /// How long, in milliseconds, to wait for another connection's lock before failing with `SQLITE_BUSY`.
        public var busyTimeout: Int32
        /// Turns on `SQLITE_DBCONFIG_DEFENSIVE` and `trusted_schema=OFF`, for database files that may
        /// come from anyone (<https://sqlite.org/security.html>).
        public var isDefensive: Bool
        /// The name of a registered VFS to open the file through, or nil for the default one
        /// (<https://sqlite.org/vfs.html>); fault-injection tests use their own.
        public var vfsName: String?

        /// Creates options; the defaults create the file if missing and wait 5 seconds for locks.
        public init(
            mode: OpenMode = .readWriteCreate, busyTimeout: Int32 = 5000, isDefensive: Bool = false, vfsName: String? = nil
        ) {
            self.mode = mode
            self.busyTimeout = busyTimeout
            self.isDefensive = isDefensive
            self.vfsName = vfsName
        }
    }

    /// The `sqlite3 *` handle; nil once closed.
    private(set) var handle: OpaquePointer?
    /// The path or URI the connection was opened with.
    public let path: String
    /// Keeps registered SQL functions' closures alive as long as the connection.
    var functionBoxes: [AnyObject] = []
    /// Keeps the trace and authorizer closures alive as long as the connection.
    var callbackBoxes: [String: AnyObject] = [:]
    /// When set, scripts and migrations stop before their next statement (see ``CancellationFlag``).
    public var cancellation: CancellationFlag?
    /// How long, in milliseconds, the connection waits for another connection's lock.
    public private(set) var busyTimeout: Int32

    /// Opens (or creates) a database.
    ///
    /// `path` may be a `file:` URI (<https://sqlite.org/uri.html>), `:memory:`, or an empty string for a
    /// private temporary database.
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is not a database.
    public init(path: String, options: Options = Options()) throws {
        self.path = path
        busyTimeout = options.busyTimeout
        var flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        switch options.mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var opened: OpaquePointer?
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
        sqlite3_close_v2(handle)
    }

    private func configure(_ options: Options) throws {
        try check(cellar_db_config_int(handle, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nil))
        try check(sqlite3_busy_timeout(handle, options.busyTimeout))
        if options.isDefensive {
            try check(cellar_db_config_int(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, nil))
            try check(cellar_db_config_int(handle, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nil))
        }
    }

    /// Closes the connection now.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_BUSY`) if a ``Statement`` of this connection is still alive;
    ///   the connection then stays open.
    public func close() throws {
        guard let handle else { return }
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
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the most recent `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Rows changed since the connection opened.
    public var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    /// Whether the connection is in autocommit mode, that is, outside any explicit transaction.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Whether the main database was opened read-only (or is a read-only file).
    public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

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
