import CellarDqlite
import CellarKit
import DqliteClient

/// The commands that run against a `dqlite://` database, through the cluster's leader, with the
/// same output as on a file; the others say why they cannot.
enum RemoteCommands {
    /// Runs command `name` on the dqlite database of `invocation`.
    static func run(_ name: String, _ invocation: Invocation) throws -> ExitStatus {
        let session = RemoteSession(invocation)
        if !invocation.configuration.extensions.isEmpty {
            throw CommandFailure(
                message: "--load-extension cannot load into a dqlite database: the cluster's nodes run their own SQLite, "
                    + "and cellar cannot load code into them")
        }
        return try session.translating {
            switch name {
            case "migrate": return try RemoteMigrateCommand.run(session)
            case "setup", "up": return try RemoteMigrateCommand.setup(session)
            case "status": return try RemoteReportCommands.status(session)
            case "verify": return try RemoteReportCommands.verify(session)
            case "rollback", "down": return try RemoteLedgerCommands.rollback(session)
            case "baseline": return try RemoteLedgerCommands.baseline(session)
            case "accept": return try RemoteLedgerCommands.accept(session)
            case "schema": return try RemoteReportCommands.schema(session)
            case "query": return try RemoteScriptCommands.query(session)
            case "run": return try RemoteScriptCommands.run(session)
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
