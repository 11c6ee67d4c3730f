import CellarKit
import Glibc

/// Opens the configured database with the configured busy timeout, with errors a user can act on.
struct DatabaseOpener {
    let configuration: Configuration

    init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Opens the database, creating it when missing (`setup`, `migrate`, `shell`).
    func openOrCreate(defensive: Bool = false) throws -> Database {
        try open(mode: .readWriteCreate, defensive: defensive)
    }

    /// Opens a database that must already exist (`query`, `status`): a mistyped path is an error, not
    /// a new empty file.
    func openExisting(defensive: Bool = false) throws -> Database {
        let path = configuration.databasePath
        if !path.hasPrefix("file:"), path != ":memory:", access(path, F_OK) != 0 {
            throw CommandFailure(message: "no database at '\(path)' (run 'cellar setup' to create it, or pass --database)")
        }
        return try open(mode: .readWrite, defensive: defensive)
    }

    private func open(mode: Database.OpenMode, defensive: Bool) throws -> Database {
        let path = configuration.databasePath
        if isDirectory(path) {
            throw CommandFailure(message: "'\(path)' is a directory, not a database file")
        }
        do {
            let database = try Database(
                path: path, options: Database.Options(mode: mode, busyTimeout: configuration.busyTimeout, isDefensive: defensive))
            try database.execute("SELECT count(*) FROM sqlite_schema")
            try loadExtensions(into: database)
            return database
        } catch let error as SQLiteError {
            throw CommandFailure(message: "cannot open database '\(path)': \(error.message)")
        }
    }

    /// Loads the `--load-extension` libraries into `database`.
    func loadExtensions(into database: Database) throws {
        for path in configuration.extensions {
            do {
                try database.loadExtension(path)
            } catch let error as SQLiteError {
                throw CommandFailure(message: "cannot load extension '\(path)': \(error.message)")
            }
        }
    }

    private func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
