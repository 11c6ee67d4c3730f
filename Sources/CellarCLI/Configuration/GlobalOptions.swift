/// The configuration table (docs/command-line.md), in one place: every global flag, its environment variable and default.
enum GlobalOptions {
    static let database = Setting(
        option: OptionSpec(
            "database", short: "d", value: "path", repeatable: true,
            help: "The database file; several, or a glob pattern, for a fleet (env CELLAR_DATABASE, then DATABASE_URL; "
                + "default cellar.sqlite)."),
        environmentVariable: "CELLAR_DATABASE", defaultValue: "cellar.sqlite")
    static let migrations = Setting(
        option: OptionSpec(
            "migrations", short: "m", value: "dir", help: "The migrations folder (env CELLAR_MIGRATIONS; default migrations)."),
        environmentVariable: "CELLAR_MIGRATIONS", defaultValue: "migrations")
    static let seeds = Setting(
        option: OptionSpec("seeds", value: "dir", help: "The seeds folder (env CELLAR_SEEDS; default seeds)."),
        environmentVariable: "CELLAR_SEEDS", defaultValue: "seeds")
    static let busyTimeout = Setting(
        option: OptionSpec(
            "busy-timeout", value: "ms", help: "How long to wait for a locked database (env CELLAR_BUSY_TIMEOUT; default 5000)."),
        environmentVariable: "CELLAR_BUSY_TIMEOUT", defaultValue: "5000")
    static let color = Setting(
        option: OptionSpec(
            "color", value: "when", completion: .choices(ColorChoice.allCases.map(\.rawValue)),
            help: "Colour: auto, always or never (NO_COLOR disables auto; default auto)."),
        environmentVariable: nil, defaultValue: "auto")

    /// Extensions to load into every connection; without it extension loading stays off.
    static let loadExtension = OptionSpec(
        "load-extension", value: "path", repeatable: true, help: "Load an SQLite extension into the connection (off otherwise).")

    /// The flag that silences progress and summaries.
    static let quiet = OptionSpec("quiet", short: "q", help: "Print no progress and no summary.")

    /// Every setting with a value.
    static let settings = [database, migrations, seeds, busyTimeout, color]

    /// The options every command accepts.
    static let options = settings.map(\.option) + [loadExtension, quiet]
}
