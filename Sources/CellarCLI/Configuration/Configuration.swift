import Glibc

/// When to use colour on the terminal.
enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never
}

/// The settings a command runs with, resolved from flags, environment and defaults.
struct Configuration: Sendable {
    /// The database file (the first one given, for a fleet).
    var databasePath: String
    /// Every database given with `-d` (or `CELLAR_DATABASE`), in order, glob patterns unexpanded.
    var databaseArguments: [String]
    /// The migrations folder.
    var migrationsDirectory: String
    /// The seeds folder.
    var seedsDirectory: String
    /// Milliseconds to wait for a lock.
    var busyTimeout: Int32
    /// Whether to colour output.
    var usesColor: Bool
    /// Whether progress and summaries are silenced.
    var isQuiet: Bool
    /// Set when the migrations folder is dbmate's `db/migrations`, used because no `migrations` folder
    /// exists and none was named: what to say about it, once.
    var migrationsFallbackNote: String?
    /// Extensions loaded into every connection cellar opens on the database (`--load-extension`).
    var extensions: [String]

    /// Resolves every setting (flags beat environment, which beats the default).
    ///
    /// - Throws: ``UsageError`` for a value that does not parse, naming the flag or variable.
    init(_ arguments: ParsedArguments, environment: [String: String], isErrorTerminal: Bool) throws(UsageError) {
        databaseArguments = try Self.databaseArguments(arguments, environment: environment)
        if let first = databaseArguments.first {
            databasePath = first
        } else {
            databasePath = try Self.urlOrDefault(environment)
        }
        migrationsDirectory = GlobalOptions.migrations.resolve(arguments, environment: environment)
        if GlobalOptions.migrations.isDefault(arguments, environment: environment),
            access(migrationsDirectory, F_OK) != 0, access(Self.dbmateMigrations, F_OK) == 0
        {
            migrationsDirectory = Self.dbmateMigrations
            migrationsFallbackNote = "no folder 'migrations' here; using dbmate's '\(Self.dbmateMigrations)'"
        }
        seedsDirectory = GlobalOptions.seeds.resolve(arguments, environment: environment)
        let timeoutText = GlobalOptions.busyTimeout.resolve(arguments, environment: environment)
        guard let timeout = Int32(timeoutText), timeout >= 0 else {
            throw UsageError("busy timeout must be a whole number of milliseconds, not '\(timeoutText)'")
        }
        busyTimeout = timeout
        let colorText = GlobalOptions.color.resolve(arguments, environment: environment)
        guard let color = ColorChoice(rawValue: colorText) else {
            throw UsageError("option '--color' expects auto, always or never, not '\(colorText)'")
        }
        switch color {
        case .always: usesColor = true
        case .never: usesColor = false
        case .auto: usesColor = isErrorTerminal && environment["NO_COLOR", default: ""].isEmpty
        }
        isQuiet = arguments.has(GlobalOptions.quiet)
        extensions = arguments.values(of: GlobalOptions.loadExtension)
    }

    /// dbmate's migrations folder, used when there is no `migrations` folder.
    static let dbmateMigrations = "db/migrations"

    /// The commands that never read the migrations folder, which need not hear where it is.
    static let commandsWithoutMigrations: Set<String> = [
        "query", "run", "shell", "dump", "restore", "blob", "create", "drop", "wait", "help", "completions", "manual",
        "schema", "version",
    ]

    /// The commands that never open the database, which may be configured to anything.
    static let commandsWithoutDatabase: Set<String> = ["new", "help", "completions", "manual", "version"]

    /// Whether several databases were named, or a pattern: `setup`, `migrate`, `status` and `verify`
    /// then run on each.
    var isFleet: Bool {
        databaseArguments.count > 1 || databaseArguments.contains(where: GlobPattern.isPattern)
    }

    /// Every `-d`, else `CELLAR_DATABASE`; empty when neither is given.
    private static func databaseArguments(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError)
        -> [String]
    {
        let setting = GlobalOptions.database
        var values = arguments.values(of: setting.option)
        if values.isEmpty, let path = environment[setting.environmentVariable ?? ""], !path.isEmpty {
            values = [path]
        }
        return values
    }

    /// `DATABASE_URL` (a URL, as dbmate reads it), read when neither `-d` nor `CELLAR_DATABASE` is given,
    /// else the default.
    private static func urlOrDefault(_ environment: [String: String]) throws(UsageError) -> String {
        if let url = environment["DATABASE_URL"], !url.isEmpty { return try DatabaseURL.path(from: url) }
        return GlobalOptions.database.defaultValue
    }
}
