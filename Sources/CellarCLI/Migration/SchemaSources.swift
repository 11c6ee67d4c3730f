import CellarDqlite
import CellarKit
import Glibc

/// The schemas `diff` and `new --from-schema` plan between, and the planner's refusals worded for
/// the command line. A SOURCE is `migrations` (the folder replayed into an in-memory database), a
/// `.sql` file (loaded into an in-memory database), or a database path or `dqlite://` URL (its live
/// schema, read without changing it).
struct SchemaSources {
    let invocation: Invocation
    /// The command planning, for usage errors.
    let command: String

    init(_ invocation: Invocation, command: String) {
        self.invocation = invocation
        self.command = command
    }

    var configuration: Configuration { invocation.configuration }

    static let rename = OptionSpec(
        "rename", value: "old=new", repeatable: true, completion: ValueCompletion.none,
        help: "Rename table OLD to NEW (or TABLE.OLD=NEW: a column) instead of dropping one and creating the other.")
    static let allowDrop = OptionSpec("allow-drop", help: "Allow the plan to drop tables and columns, and the data in them.")
    static let schemaFileOption = OptionSpec(
        "schema-file", value: "file",
        help: "The desired schema (default: schema.sql beside the migrations folder; env CELLAR_SCHEMA_FILE).")

    /// The options every command that plans takes.
    static let options: [OptionSpec] = [rename, allowDrop, schemaFileOption]

    /// The desired schema file: `--schema-file`, else `CELLAR_SCHEMA_FILE`, else `schema.sql` beside
    /// the migrations folder.
    var schemaFile: String {
        if let path = invocation.arguments.value(of: Self.schemaFileOption) { return path }
        if let path = invocation.io.environment["CELLAR_SCHEMA_FILE"], !path.isEmpty { return path }
        let folder = FilePath.folder(of: configuration.migrationsDirectory)
        return folder == "." ? "schema.sql" : DirectoryListing.join(folder, "schema.sql")
    }

    /// The planner's options from `--rename` and `--allow-drop`.
    func plannerOptions(allowingDrop: Bool? = nil) throws -> SchemaPlanner.Options {
        let renames = try invocation.arguments.values(of: Self.rename).map { text in
            guard let rename = SchemaRename(parsing: text) else {
                throw UsageError(
                    "option '--rename' expects OLD=NEW (a table) or TABLE.OLD=NEW (a column), not '\(text)'",
                    command: command)
            }
            return rename
        }
        return SchemaPlanner.Options(renames: renames, allowsDrop: allowingDrop ?? invocation.arguments.has(Self.allowDrop))
    }

    // MARK: - Loading

    /// The schema `source` names, in a database this command may read but that is never the user's own
    /// file opened for writing.
    func load(_ source: String) throws -> Database {
        if source == "migrations" { return try replayMigrations() }
        if source.hasSuffix(".sql") { return try loadFile(source) }
        // A database that cannot be opened read-only here (a dqlite database) has its schema copied.
        if !DatabaseAddress(source).makesCopies { return try loadRemote(source) }
        return try openDatabase(source)
    }

    /// An empty in-memory database set up as the command's connections are (its `--load-extension`s).
    func emptyDatabase() throws -> Database {
        let opener = DatabaseOpener(configuration)
        return try opener.open(":memory:", options: opener.options(mode: .readWriteCreate))
    }

    /// What the migrations folder builds: every migration's up section replayed, in version order, into
    /// an in-memory database (``SchemaReplay``; the folder's checkpoint stands for the versions it covers). A failure is the replay's, located in its file; nothing
    /// of the user's is changed.
    func replayMigrations() throws -> Database {
        let files = try MigrationSession(invocation).loadUsableFiles()
        let opener = DatabaseOpener(configuration)
        do {
            return try SchemaReplay(
                migrations: files.migrations, checkpoint: files.checkpoint, options: opener.options(mode: .readWriteCreate)
            ).replay()
        } catch let error as MigrationError {
            throw FlagAdvice.advised(error)
        }
    }

    /// The schema file `path` loaded into an in-memory database; a statement that fails is reported
    /// at its `path:line:column`.
    func loadFile(_ path: String) throws -> Database {
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(path, limit: 256 << 20)
        } catch let error as SystemError where error.code == ENOENT {
            throw CommandFailure(
                message:
                    "no schema file '\(path)'; write one with 'cellar schema > \(path)', or name another with --schema-file FILE or CELLAR_SCHEMA_FILE"
            )
        } catch let error as SystemError {
            throw CommandFailure(message: "cannot read schema file '\(path)': \(String(cString: strerror(error.code)))")
        } catch {
            throw CommandFailure(message: "cannot read schema file '\(path)': not a regular file of at most 256 MiB")
        }
        let text = try MigrationSession.decoding { () throws(MigrationError) in try SQLFileDecoder.decode(bytes, path: path) }
        let database = try emptyDatabase()
        do {
            try database.execute(text)
        } catch let error as SQLiteError {
            throw Diagnostic(error, path: path, in: SourceText(text))
        }
        return database
    }

    /// The live schema of the database file at `path`, read read-only (no checkpoint on close), copied
    /// into memory.
    func openDatabase(_ path: String) throws -> Database {
        guard path.hasPrefix("file:") || access(path, F_OK) == 0 else {
            throw CommandFailure(message: "no database at '\(path)'")
        }
        let opener = DatabaseOpener(configuration)
        var options = opener.options(mode: .readOnly)
        options.checkpointsOnClose = false
        do {
            return try opener.open(path, options: options)
        } catch let failure as CommandFailure where failure.message.hasSuffix("database is locked") {
            throw CommandFailure(
                message: FlagAdvice.lockedMessage(
                    path: path, timeout: configuration.busyTimeout, consequence: "nothing was changed"))
        }
    }

    /// The schema of the dqlite database at `url`, copied into an in-memory database.
    func loadRemote(_ url: String) throws -> Database {
        var remote = configuration
        remote.databasePath = url
        let session = RemoteSession(Invocation(arguments: invocation.arguments, configuration: remote, io: invocation.io))
        return try session.translating { try RemoteSchema.copy(of: try session.connect()) }
    }

    // MARK: - Planning

    /// The proved plan from `from` to `to`, the planner's refusals worded with the flags that resolve them.
    func plan(from: Database, to: Database, options: SchemaPlanner.Options) throws -> SchemaPlan {
        do {
            return try SchemaPlanner.plan(from: from, to: to, options: options)
        } catch let error as SchemaPlanError {
            throw CommandFailure(message: Self.advice(for: error))
        }
    }

    /// Runs `plan` on a rehearsal copy of the database file at `path` (as `migrate --dry-run` copies
    /// one) and returns each table's rows before and after; the file is not changed.
    func rehearse(_ plan: SchemaPlan, against path: String, renames: [SchemaRename]) throws -> [SchemaPlan.TableRows] {
        guard DatabaseAddress(path).makesCopies else {
            throw CommandFailure(
                message: "--against needs a database file: a dqlite database cannot be copied for a rehearsal (dqlite does not "
                    + "offer SQLite's backup API)")
        }
        let database = try openDatabase(path)
        do {
            return try plan.rehearse(on: database, renames: renames)
        } catch let error as SchemaPlanError {
            throw CommandFailure(message: "rehearsed on \(path): " + Self.advice(for: error))
        } catch let error as SQLiteError where error.isLockContention {
            throw CommandFailure(
                message: FlagAdvice.lockedMessage(
                    path: path, timeout: configuration.busyTimeout, consequence: "nothing was changed"))
        }
    }

    /// The planner's error with what the user can do about it.
    static func advice(for error: SchemaPlanError) -> String {
        switch error {
        case .dropRefused(let tables, let columns, let renames):
            let keep =
                renames.isEmpty
                ? "" : "; to keep the data, rename instead: " + renames.map { "--rename \($0)" }.joined(separator: ", ")
            return "\(error.description)\(keep); pass --allow-drop to drop \(tables.count + columns.count == 1 ? "it" : "them")"
        case .notNullWithoutDefault:
            return "\(error.description): give it a DEFAULT, or add it nullable and fill it in a migration of your own"
        default:
            return error.description
        }
    }
}
