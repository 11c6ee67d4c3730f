import CellarDqlite
import CellarKit
import DqliteClient

/// The commands that run against a `dqlite://` database, through the cluster's leader, with the
/// same output as on a file; the others say why they cannot.
enum RemoteCommands {
    /// The commands whose own code runs on a dqlite database through CellarKit's engine seam.
    static let sharedCommands: Set<String> = [
        "migrate", "setup", "status", "verify", "rollback", "baseline", "accept", "seed", "schema", "query", "run", "dump",
        "shell",
    ]

    /// Runs `command` on the dqlite database of `invocation`.
    static func run(_ command: any Command.Type, _ invocation: Invocation) throws -> ExitStatus {
        let name = command.spec.name
        let session = RemoteSession(invocation)
        if !invocation.configuration.extensions.isEmpty {
            throw CommandFailure(
                message: "--load-extension cannot load into a dqlite database: the cluster's nodes run their own SQLite, "
                    + "and cellar cannot load code into them")
        }
        return try session.translating {
            if sharedCommands.contains(name) { return try command.run(invocation) }
            switch name {
            default: throw CommandFailure(message: unavailableReason(name, url: invocation.configuration.databasePath))
            }
        }
    }

    /// Why `name` does not run on a dqlite database.
    static func unavailableReason(_ name: String, url: String) -> String {
        switch name {
        case "create", "drop":
            "'\(name)' works on database files; a dqlite database is created by the cluster when first opened, "
                + "and dropped by its operators (\(url))"
        case "restore", "backup":
            "'\(name)' needs SQLite's online backup API on a local file, which a dqlite cluster does not offer (\(url))"
        default:
            "'\(name)' does not work on a dqlite database yet (\(url)); run it on a file"
        }
    }
}
