import CellarDqlite
import CellarKit

/// `status`, `verify` and `schema` on a dqlite database: the local reports, run on a copy of the
/// cluster's ledger and schema.
enum RemoteReportCommands {
    static func status(_ session: RemoteSession) throws -> ExitStatus {
        let arguments = session.invocation.arguments
        let format = arguments.value("format") ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("option '--format' expects text or json, not '\(format)'", command: "status")
        }
        let migrations = try session.migrationSession.loadMigrations()
        let mirror = try RemoteMigrator(database: try session.connect(), migrations: migrations).mirror()
        let report = StatusReport(
            databasePath: session.url, version: try mirror.currentVersion(), migrations: try mirror.status(), seeds: [])
        try session.io.output.write(format == "json" ? report.json() : report.text())
        let hasWork = report.migrations.contains { $0.state != .applied }
        return arguments.has("exit-code") && hasWork ? .workPending : .success
    }

    static func verify(_ session: RemoteSession) throws -> ExitStatus {
        let migrations = try session.migrationSession.loadMigrations()
        let mirror = try RemoteMigrator(database: try session.connect(), migrations: migrations).mirror()
        let problems = try mirror.verify()
        let reporter = ErrorReporter(io: session.io, usesColor: session.invocation.configuration.usesColor)
        for problem in problems {
            _ = reporter.report(problem.diagnostic.map { $0 as any Error } ?? CommandFailure(message: problem.description))
        }
        guard problems.isEmpty else {
            throw CommandFailure(
                message: "verification failed: \(MigrationProgress.count(problems.count, "applied migration")) "
                    + "\(problems.count == 1 ? "does" : "do") not match the files")
        }
        try session.migrationSession.summarize(
            "verified \(MigrationProgress.count(try mirror.applied().count, "applied migration")): all match their files")
        return .success
    }

    static func schema(_ session: RemoteSession) throws -> ExitStatus {
        let schema = try RemoteSchema.copy(of: try session.connect()).schemaSQL()
        guard session.io.isOutputTerminal else {
            try session.io.output.write(schema)
            return .success
        }
        for line in schema.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            try session.io.printOutput(ControlCharacterEscaping.escape(String(line)))
        }
        return .success
    }
}
