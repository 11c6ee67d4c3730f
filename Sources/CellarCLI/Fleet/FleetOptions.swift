/// The options of the commands that run on a fleet: `setup`, `migrate`, `status` and `verify`.
enum FleetOptions {
    static let databasesFrom = OptionSpec(
        "databases-from", value: "file",
        help: "Also run on the databases listed in this file, one path a line ('-': standard input).")
    static let jobs = OptionSpec(
        "jobs", short: "j", value: "n", help: "For a fleet: how many databases at a time (default: cores).")
    static let failFast = OptionSpec("fail-fast", help: "For a fleet: start no other database after the first failure.")
    static let format = OptionSpec(
        "format", value: "format", completion: .choices(["text", "json"]),
        help: "text (default) or json (one object per database per line).")

    /// The options every fleet command takes (`status` has its own `--format`).
    static let options = [databasesFrom, jobs, failFast]
}
