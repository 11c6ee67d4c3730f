import CellarKit
import Glibc

/// What the migration commands share: loading the files, opening the database for writing with clear
/// errors, and turning migrator errors into diagnostics and exit statuses.
struct MigrationSession {
    let invocation: Invocation

    init(_ invocation: Invocation) {
        self.invocation = invocation
    }

    var configuration: Configuration { invocation.configuration }
    var io: IO { invocation.io }

    /// Every migration of the configured folder, checked before the database is touched.
    func loadMigrations() throws -> [Migration] {
        try loadUsableFiles().migrations
    }

    /// Every migration of the configured folder and its checkpoint, all checked before the database is
    /// touched (a file that cannot be used is an error).
    func loadUsableFiles() throws -> MigrationFiles {
        let files = try loadMigrationFiles()
        if let problem = files.problems.first { try translating { throw problem.error } }
        return files
    }

    /// Every migration of the configured folder that can be used, and the files that cannot, for the
    /// commands that only report or that act on some files only (they keep working when a
    /// pending file is malformed). A fleet reads the folder once for all its databases.
    func loadMigrationFiles() throws -> MigrationFiles {
        let folder = configuration.migrationsDirectory
        let source = MigrationSource.folder(folder)
        return try translating {
            guard let shared = invocation.fleetFiles else { return try source.loadReportingProblems() }
            return try shared.files(in: folder) { () throws(MigrationError) in try source.loadReportingProblems() }
        }
    }

    /// Throws the error of the first file among `versions` that cannot be used: the files a command
    /// acts on must all be good, the others may not be.
    func requireUsable(_ files: MigrationFiles, versions: some Sequence<Int64>) throws {
        for version in versions {
            if let problem = files.problem(version: version) { try translating { throw problem.error } }
        }
    }

    /// Fails with `no database at PATH` when the database file does not exist, for the checks that
    /// must not pass on a mistyped path (`verify`, `status --exit-code`).
    func requireExistingDatabase() throws {
        guard !configuration.address.isMissing else {
            throw CommandFailure(message: "no database at \(configuration.databasePath)")
        }
    }

    /// Checks what `migrate` checks before it runs — order, target, `--all-or-nothing` — against the
    /// database as it is, without creating or changing it. Where the database cannot be read that way
    /// (a dqlite database, ``DatabaseAddress/makesCopies``) the migrator checks the same on its own
    /// connection before it applies anything.
    func preflight(_ migrations: [Migration], checkpoint: Checkpoint?, options: Migrator.Options) throws {
        guard configuration.address.makesCopies else { return }
        let check = {
            let database = try openForReading()
            _ = try translating {
                try Migrator(database: database, migrations: migrations, checkpoint: checkpoint).validate(options)
            }
        }
        // A fleet asks once for all its databases that do not exist yet (their answer is the same).
        guard let shared = invocation.fleetFiles, configuration.address.isMissing else { return try check() }
        try DatabaseOpener.refuseCompanion(configuration.databasePath)
        try shared.checkOfAbsentDatabase(in: configuration.migrationsDirectory, check)
    }

    /// Opens the database for writing (creating it when `creating`), refusing a read-only one; seeds
    /// get the file functions.
    func openForWriting(creating: Bool, fileFunctions: Bool = false) throws -> Database {
        let opener = DatabaseOpener(configuration)
        let database =
            try creating ? opener.openOrCreate(fileFunctions: fileFunctions) : opener.openExisting(fileFunctions: fileFunctions)
        if try database.isReadOnly {
            throw CommandFailure(message: "database '\(configuration.databasePath)' is read-only; nothing was changed")
        }
        return database
    }

    /// Opens the database to read it, or an empty in-memory one when the file does not exist yet, so
    /// that `status` and `--dry-run` never create it.
    func openForReading() throws -> Database {
        try DatabaseOpener(configuration).openForReading()
    }

    /// Opens the database for a dry run: read-only, with no checkpoint on close (see ``DatabaseOpener``).
    func openForRehearsal() throws -> Database {
        try DatabaseOpener(configuration).openForRehearsal()
    }

    /// A migrator on `database` that reports progress on standard error.
    func migrator(_ database: Database, migrations: [Migration], checkpoint: Checkpoint?) -> Migrator {
        let migrator = Migrator(database: database, migrations: migrations, checkpoint: checkpoint)
        migrator.observer = MigrationProgress(io: io, isQuiet: configuration.isQuiet).observe
        return migrator
    }

    /// Warns on standard error about applied migrations whose file changed or is missing: `migrate`
    /// and `setup` go on (the change may be harmless), `verify` is the command that fails on them.
    func warnAboutAppliedChanges(_ migrator: Migrator) throws {
        for problem in try migrator.verify() {
            let text: String
            switch problem {
            case .unfinished:
                // Another deploy may be running it right now; migrate waits for it and says more if it must.
                continue
            case .changedAfterApply(let version, let path):
                text = "\(path): \(FlagAdvice.changedAfterApplyMessage(version: version))"
            default:
                text = problem.description
            }
            io.printError("cellar: warning: \(ControlCharacterEscaping.escape(text))")
        }
    }

    /// Runs `body`, turning migrator and lock errors into what ``ErrorReporter`` prints.
    func translating<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch MigrationError.missingFolder(let path) {
            throw CommandFailure(message: missingFolderMessage(path))
        } catch let error as MigrationError {
            throw FlagAdvice.advised(error)
        } catch let error as SQLiteError where error.isLockContention {
            throw CommandFailure(
                message: FlagAdvice.lockedMessage(
                    path: configuration.databasePath, timeout: configuration.busyTimeout, consequence: "nothing was changed"))
        } catch let error as SQLiteError where error.resultCode == .readOnly {
            throw CommandFailure(message: "database '\(configuration.databasePath)' is read-only: \(error.message)")
        }
    }

    /// `no folder 'migrations'`, with where cellar looked and how to point it elsewhere.
    private func missingFolderMessage(_ path: String) -> String {
        let place = path.hasPrefix("/") ? "" : " (looked in \(FilePath.normalized(path)))"
        let pointer =
            path == configuration.seedsDirectory && path != configuration.migrationsDirectory
            ? "--seeds DIR or CELLAR_SEEDS" : "-m/--migrations DIR or CELLAR_MIGRATIONS"
        return "no folder '\(path)'\(place); point elsewhere with \(pointer)"
    }

    /// Runs `body`, turning a ``MigrationError`` about a file (its encoding) into the diagnostic the
    /// error reporter prints.
    static func decoding<Result>(_ body: () throws(MigrationError) -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw FlagAdvice.advised(error)
        }
    }

    /// The `--dump-schema FILE` option of `migrate` and `setup`.
    static let dumpSchemaOption = OptionSpec(
        "dump-schema", value: "file", help: "After a successful run, write 'cellar schema' to this file.")

    /// Writes `cellar schema` of `database` to the `--dump-schema` file, if one was asked for.
    func dumpSchemaIfAsked(_ database: any SQLConnection) throws {
        guard let path = invocation.arguments.value(of: Self.dumpSchemaOption) else { return }
        do {
            try FileContents.write(Array(try schemaSQL(of: database).utf8), to: path)
        } catch let error as SystemError {
            throw CommandFailure(message: "cannot write the schema to '\(path)': \(error)")
        }
    }

    /// Takes the `--backup` copy, if asked for, and prints its path; `version` is read only then.
    func backUpIfAsked(_ connection: any SQLConnection, version: @autoclosure () throws -> Int64) throws {
        try refuseBackupIfUncopyable()
        let policy = BackupPolicy(invocation.arguments)
        guard policy.isEnabled else { return }
        if let path = try policy.backUp(connection, address: configuration.databasePath, version: version()) {
            invocation.record?.backupPath = path
            try io.printOutput("backup: \(ControlCharacterEscaping.escape(path))")
        }
    }

    /// Writes the one-line summary on standard output unless `--quiet`.
    func summarize(_ line: String) throws {
        guard !configuration.isQuiet else { return }
        try io.printOutput(line)
    }

    /// The parsed value of a version argument or option (`3`, `0003`, `20261129120000`).
    static func version(_ text: String, command: String) throws(UsageError) -> Int64 {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let version = Int64(text) else {
            throw UsageError("'\(text)' is not a migration version (a whole number)", command: command)
        }
        return version
    }
}
