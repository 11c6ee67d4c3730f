import CellarKit
import Glibc

/// `cellar create`: makes an empty database file, as dbmate's `create` does.
enum CreateCommand: Command {
    static let spec = CommandSpec(
        name: "create", cluster: .filesOnly,
        abstract: "Create an empty database; an error if it already exists.",
        discussion: "The new file is a valid SQLite database with no tables (version 0); 'cellar setup' also creates it.",
        examples: [
            .init("cellar create -d app.sqlite", "Create an empty database; an error if the file exists.")
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let address = invocation.configuration.databasePath
        guard let path = DatabaseFile.path(of: address) else {
            throw CommandFailure(message: "'\(address)' is not a database file; create needs a path")
        }
        try DatabaseOpener.refuseCompanion(path)
        // O_EXCL makes "already exists" exact even when two processes race to create it.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw CommandFailure(message: "database '\(path)' already exists") }
            throw CommandFailure(message: "cannot create database '\(path)': \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        do {
            let database = try DatabaseOpener(invocation.configuration).openExisting()
            // Writing the header makes the file a database that any tool recognises, not an empty file.
            try database.execute("PRAGMA user_version = 0")
        } catch {
            unlink(path)
            throw error
        }
        if !invocation.configuration.isQuiet { try invocation.io.printOutput("created database \(path)") }
        return .success
    }
}
