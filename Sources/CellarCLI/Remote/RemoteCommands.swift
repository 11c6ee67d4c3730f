import CellarDqlite
import CellarKit
import DqliteClient

/// The commands that run against a `dqlite://` database, through the cluster's leader, with the
/// same output as on a file; the others say why they cannot (each declares which in its
/// ``CommandSpec/cluster``).
enum RemoteCommands {
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
            if let refusal = command.spec.cluster.refusal(of: name, url: invocation.configuration.databasePath) {
                throw CommandFailure(message: refusal)
            }
            return try command.run(invocation)
        }
    }
}
