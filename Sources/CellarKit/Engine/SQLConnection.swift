/// What the migrator, the ledger, the seeder and the script runner need from a database connection:
/// statements prepared from SQL text, bound values, rows, transactions and changes.
///
/// ``Database`` (a local SQLite file) is one engine; a remote one — a dqlite cluster spoken to over its
/// wire protocol — can stand behind the same seam. Errors of every engine are ``SQLiteError`` values
/// (dqlite reports SQLite's own codes and messages), so located diagnostics work the same on both.
///
/// Everything else (``execute(_:_:)``, ``query(_:_:)``, ``scalar(_:_:)``, ``transaction(_:_:)``, the
/// statement cursor the runners share) is built on these requirements in extensions.
package protocol SQLConnection: AnyObject {
    /// The engine's prepared statement.
    associatedtype PreparedStatement: SQLStatement

    /// Prepares the first statement of `text` at or after byte `start`, where `text` is UTF-8 whose
    /// last byte is a NUL terminator (so an engine can read it in place, without a copy).
    ///
    /// - Returns: the statement, or nil when only whitespace and comments were left before `end`;
    ///   and `end`, the offset just past what was consumed (the prepare's tail).
    /// - Throws: ``SQLiteError`` whose `offset`, when the engine knows the place, is absolute within `text`.
    func prepareStatement(in text: UnsafeBufferPointer<UInt8>, from start: Int) throws -> (
        statement: PreparedStatement?, end: Int
    )

    /// Whether the connection is outside any explicit transaction.
    var isAutocommit: Bool { get throws }

    /// Whether the connection holds the write lock of its main database, in a transaction that has
    /// written or began `IMMEDIATE` (`sqlite3_txn_state`): a statement writing there then cannot
    /// meet another connection's lock.
    var holdsWriteLock: Bool { get throws }

    /// Rows inserted, updated or deleted since the connection opened.
    var totalChanges: Int { get throws }

    /// When set, runners stop before their next statement (see ``CancellationFlag``).
    var cancellation: CancellationFlag? { get set }

    /// How another thread stops the statement running now.
    var interruption: ConnectionInterruption { get }

    /// Runs `body` with `policy` refusing statements prepared meanwhile, beside any checks the
    /// connection's owner installed, which are as they were afterwards. A local engine uses SQLite's
    /// authorizer; a remote one checks each statement before sending it (``ConnectionPolicy/evaluate(_:)``).
    func withPolicy<Result>(_ policy: ConnectionPolicy, _ body: () throws -> Result) throws -> Result

    /// Runs `body` with `handler` called now and then while statements run (returning true interrupts
    /// the statement), leaving the owner's own handler as it was. An engine without such a hook runs
    /// `body` as it is.
    func withProgressHandler<Result>(every instructions: Int32, _ handler: @escaping () -> Bool, _ body: () throws -> Result)
        throws -> Result

    /// Runs `body` with the file functions `readfile`/`writefile`, if the connection has them,
    /// resolving relative paths against `folder` (a seed's own folder), and as before afterwards. An
    /// engine without them runs `body` as it is.
    func withFileFunctions<Result>(relativeTo folder: String, _ body: () throws -> Result) throws -> Result

    /// A private in-memory database set up as this connection was (extensions, functions, safety
    /// settings), holding a copy of this one's contents when `copyingContents`, else empty: a dry run
    /// rehearses on the copy, drift detection replays migrations into the empty one.
    ///
    /// - Throws: ``SQLiteError`` when the engine cannot make one.
    func rehearsalDatabase(copyingContents: Bool) throws -> any SQLConnection

    /// How a ``SchemaReplay`` opens its in-memory database to be set up as this connection is (its
    /// extensions and functions); an engine with no local options gives the defaults.
    var replayOptions: Database.Options { get }

    /// Runs `sql`, one statement that returns no rows, with `arguments`, then commits the open
    /// transaction, only if the statement succeeded: how the migrator writes a migration's ledger row
    /// and commits it. An engine that pays a round trip per request sends both in one.
    ///
    /// - Throws: ``SQLiteError`` when the statement or the commit fails; the transaction is then still
    ///   open (roll it back), unless the failure ended it.
    func executeAndCommit(_ sql: String, _ arguments: [any ValueConvertible]) throws

    /// Runs `sql`, one statement that returns no rows, with `arguments`, as ``execute(_:_:)`` does,
    /// from a statement the connection may keep prepared for the next run of the same text (a local
    /// database does, until ``releaseReusedStatements()``; the default prepares it each time).
    func executeReused(_ sql: String, _ arguments: [any ValueConvertible]) throws

    /// Lets go of the statements ``executeReused(_:_:)`` kept.
    func releaseReusedStatements()

    /// Whether every request is a round trip to a server: the migrator then asks in one read what a
    /// local engine answers in two (see ``Ledger/lookUp(_:in:)``).
    var requestsAreRoundTrips: Bool { get }

    /// Whether ``rehearsalDatabase(copyingContents:)`` can copy the contents (SQLite's online backup
    /// API): a dry run rehearses on the copy, else inside one transaction that is rolled back.
    var makesRehearsalCopies: Bool { get }

    /// Whether ``holdsWriteLock`` is read from the engine (`sqlite3_txn_state`) and SQLite's authorizer
    /// sees each statement, so that a `transaction:false` migration's claim can ride with its own first
    /// transaction; an engine without both claims and records in transactions of their own.
    var tracksTransactions: Bool { get }

    // MARK: Capabilities
    // What callers would otherwise ask for by engine type; each has a default for an engine without it.

    /// The database as its user named it: a file's path, a cluster's URL.
    var name: String { get }

    /// The local SQLite connection, for what only SQLite's C API on a local file offers and no other
    /// engine could (the shell's file-only dot-commands: `.backup`/`.save`/`.restore`, `.blob`'s
    /// incremental I/O, `.dbinfo`, `.load`, `.trace`, `.stats`, `.timeout`, `.archive`, which their rows
    /// refuse on another engine before they run; `.import`'s binding straight from its buffer). A
    /// caller that would branch on it asks a capability above instead. Nil for an engine without one.
    var localDatabase: Database? { get }

    /// Copies the database to a new file at `path` with mode bits `permissions` (nil: a new file's
    /// default), as ``Database/backup(toFile:permissions:)`` does.
    ///
    /// - Throws: ``SystemError`` when `path` exists (`EEXIST`) or a file operation fails;
    ///   ``SQLiteError`` from the copy, or for an engine without SQLite's online backup API.
    func backUp(toFile path: String, permissions: UInt32?) throws

    /// Runs `body` with `EXPLAIN QUERY PLAN` also showing the plans of the triggers a statement fires
    /// (`SQLITE_DBCONFIG_TRIGGER_EQP`, sqlite3's `.eqp trigger`), and the setting as it was afterwards;
    /// an engine without the setting runs `body` as it is.
    func withTriggerPlans<Result>(_ body: () throws -> Result) throws -> Result

    /// Whether the main database is open read-only (`sqlite3_db_readonly`); false for an engine that
    /// cannot tell, whose writes then fail as they run.
    var isReadOnly: Bool { get throws }

    /// The databases the connection has open, as `PRAGMA database_list` names them: the schema name
    /// and its file. An engine whose files are not on this machine names only `main`, at ``name``.
    func attachedDatabases() throws -> [(name: String, file: String)]

    /// The collating sequence of `column` in `table` of the main database (`BINARY` when it declares
    /// none, `sqlite3_table_column_metadata`); nil when there is no such column, or for an engine that
    /// cannot tell.
    func collation(ofColumn column: String, inTable table: String) throws -> String?

    /// Rows the most recent `INSERT`, `UPDATE` or `DELETE` changed, without those its triggers changed
    /// (`sqlite3_changes`); nil for an engine that counts only totals.
    var lastStatementChanges: Int? { get }

    /// The schema as `cellar schema` prints it (``Database/schemaSQL()``).
    func schemaText() throws -> String

    /// The `--safe` policy installed for the connection's life, which remembers its last refusal; nil
    /// when there is none (an engine that cannot install one refuses `--safe` before it runs).
    var safeModePolicy: ConnectionPolicy? { get }

    /// Runs `body`, a run of migrations, as the engine runs several best (a file keeps its rollback
    /// journal from one transaction to the next, ``PersistentJournal``).
    func duringMigrations<Result>(_ body: () throws -> Result) throws -> Result

    /// Runs `body`; when the connection to the server is lost (a dqlite leader died or stepped down),
    /// connects again, tells `onReconnect` why and where, and runs `body` again from the start, a
    /// bounded number of times. `body` must read the state it depends on again. An engine that cannot
    /// lose its connection runs `body` once.
    func restartingAfterConnectionLoss<Result>(
        onReconnect: (_ reason: String, _ server: String) -> Void, _ body: () throws -> Result
    ) throws -> Result

    /// After a statement failed because the connection to the server was lost: connects again and
    /// returns where to; nil when `error` is no such loss (always, for an engine without a server).
    func reconnect(after error: any Error) throws -> String?

    /// Follows a migration run's events (a remote engine's fault points).
    func observe(_ event: MigrationEvent)

    /// Tells the engine the SQL text it is likely to run after the next ``executeAndCommit(_:_:)`` (the
    /// next migration's; nil: none known): an engine whose requests are round trips may do its own work
    /// for that text while the commit's reply is on its way, and drops that work if what runs next is
    /// something else. A hint only: nothing runs on the database because of it.
    func willRunNext(_ sql: String?)
}

extension SQLConnection {
    /// An engine that cannot tell: never assumed to hold the lock.
    package var holdsWriteLock: Bool { false }

    /// A local engine: each request is a function call.
    package var requestsAreRoundTrips: Bool { false }
    package var makesRehearsalCopies: Bool { false }
    package var tracksTransactions: Bool { false }

    package var localDatabase: Database? { nil }
    package var lastStatementChanges: Int? { nil }
    package var safeModePolicy: ConnectionPolicy? { nil }

    package func duringMigrations<Result>(_ body: () throws -> Result) throws -> Result {
        try body()
    }

    package var isReadOnly: Bool { false }

    package func attachedDatabases() throws -> [(name: String, file: String)] { [("main", name)] }

    package func collation(ofColumn column: String, inTable table: String) throws -> String? { nil }

    /// An engine without SQLite's online backup API cannot make the copy.
    package func backUp(toFile path: String, permissions: UInt32?) throws {
        throw SQLiteError(code: 21, message: "\(name) cannot be copied: the engine does not offer SQLite's backup API")
    }

    package func withTriggerPlans<Result>(_ body: () throws -> Result) throws -> Result {
        try body()
    }

    package func restartingAfterConnectionLoss<Result>(
        onReconnect: (_ reason: String, _ server: String) -> Void, _ body: () throws -> Result
    ) throws -> Result {
        try body()
    }

    package func reconnect(after error: any Error) throws -> String? { nil }

    package func observe(_ event: MigrationEvent) {}

    package func willRunNext(_ sql: String?) {}

    package func executeReused(_ sql: String, _ arguments: [any ValueConvertible]) throws {
        try execute(sql, arguments)
    }

    package func releaseReusedStatements() {}

    /// The statement, then `COMMIT`: two steps for an engine that has no cheaper way.
    package func executeAndCommit(_ sql: String, _ arguments: [any ValueConvertible]) throws {
        try execute(sql, arguments)
        try execute("COMMIT")
    }

    /// The defaults: an engine without local options sets nothing up.
    package var replayOptions: Database.Options { Database.Options() }

    /// A private in-memory copy of the database, set up as this connection was, for a dry run.
    package func rehearsalCopy() throws -> any SQLConnection {
        try rehearsalDatabase(copyingContents: true)
    }
}
