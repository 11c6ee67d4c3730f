import CellarKit

/// `cellar verify`: fails if an applied migration's file changed or is missing.
enum VerifyCommand: Command {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Fail (exit 1) if any applied migration's file changed or is missing.")

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let session = MigrationSession(invocation)
        let migrations = try session.loadMigrations()
        let migrator = Migrator(database: try session.openForReading(), migrations: migrations)
        let problems = try migrator.verify()
        let reporter = ErrorReporter(io: invocation.io, usesColor: invocation.configuration.usesColor)
        for problem in problems {
            _ = reporter.report(FlagAdvice.advised(problem))
        }
        guard problems.isEmpty else {
            throw CommandFailure(
                message: "verification failed: \(MigrationProgress.count(problems.count, "applied migration")) "
                    + "\(problems.count == 1 ? "does" : "do") not match the files")
        }
        try session.summarize(
            "verified \(MigrationProgress.count(try migrator.applied().count, "applied migration")): all match their files")
        return .success
    }
}
