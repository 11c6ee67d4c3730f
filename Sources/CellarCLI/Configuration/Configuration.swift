/// When to use colour on the terminal.
enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never
}

/// The settings a command runs with, resolved from flags, environment and defaults.
struct Configuration: Sendable {
    /// The database file.
    var databasePath: String
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
    /// Extensions loaded into every connection cellar opens on the database (`--load-extension`).
    var extensions: [String]

    /// Resolves every setting (flags beat environment, which beats the default).
    ///
    /// - Throws: ``UsageError`` for a value that does not parse, naming the flag or variable.
    init(_ arguments: ParsedArguments, environment: [String: String], isErrorTerminal: Bool) throws(UsageError) {
        databasePath = try Self.databasePath(arguments, environment: environment)
        migrationsDirectory = GlobalOptions.migrations.resolve(arguments, environment: environment)
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
        isQuiet = arguments.has(GlobalOptions.quiet.long)
        extensions = arguments.allValues(GlobalOptions.loadExtension.long)
    }

    /// `-d`, then `CELLAR_DATABASE`, then `DATABASE_URL` (a URL, as dbmate reads it), then the default.
    private static func databasePath(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError)
        -> String
    {
        let setting = GlobalOptions.database
        let explicit =
            arguments.value(setting.option.long).map { ("--database", $0) }
            ?? environment[setting.environmentVariable ?? ""].flatMap { $0.isEmpty ? nil : ("CELLAR_DATABASE", $0) }
        if let (_, path) = explicit { return path }
        if let url = environment["DATABASE_URL"], !url.isEmpty { return try DatabaseURL.path(from: url) }
        return setting.defaultValue
    }
}
