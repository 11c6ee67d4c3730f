/// A `cellar` subcommand.
protocol Command {
    /// Name, arguments, options and help.
    static var spec: CommandSpec { get }

    /// Runs the command.
    ///
    /// - Returns: the exit status.
    /// - Throws: any error; ``ErrorReporter`` turns it into a message and an exit status.
    static func run(_ invocation: Invocation) throws -> ExitStatus
}

/// Everything a command runs with: its parsed arguments, the resolved configuration and the streams.
struct Invocation {
    /// The parsed command line.
    let arguments: ParsedArguments
    /// Settings from flags, environment and defaults.
    let configuration: Configuration
    /// Standard streams and environment.
    let io: IO
    /// Where a command run for one database of a fleet leaves what it did; nil otherwise.
    var record: FleetRecord? = nil
    /// The migration files a fleet reads once for all its databases; nil outside a fleet.
    var fleetFiles: FleetMigrationFiles? = nil
}
