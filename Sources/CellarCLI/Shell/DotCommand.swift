/// One dot-command: everything the shell knows about it, in one row of ``DotCommandCatalog/entries``.
/// The row drives dispatch, `.help`, completion, "did you mean", the usage error of a wrong argument
/// count, and the `--safe` and cluster refusals, so that adding a command is one edit (the shape of
/// DuckDB's `metadata_commands[]`).
struct DotCommand: Sendable {
    /// What completion offers for the command's arguments.
    enum Completion: Sendable, Equatable {
        /// Nothing.
        case none
        /// File paths.
        case paths
        /// Table names.
        case tables
        /// The output modes.
        case modes
        /// `on` and `off`.
        case onOff
    }

    /// Which prefixes of the name stand for the command.
    enum Abbreviation: Sendable, Equatable {
        /// sqlite3's rule for a command it shares: its `do_meta_command` tries the commands in a fixed
        /// order, each matching a prefix of at least `shortest` characters, and the first match wins;
        /// `except` holds the prefixes that an earlier command cellar lacks takes (prefix → its name).
        case sqlite3(shortest: Int, except: [String: String] = [:])
        /// cellar's own command: any prefix that no other command's name starts with.
        case unique
    }

    /// Runs the command on a session with the line as typed (its name resolved).
    typealias Handler = @Sendable (ShellSession, DotCommandLine) throws -> DotCommandOutcome

    /// The name without its dot.
    let name: String
    /// Other names it answers to in full (sqlite3's `.indices`), besides its unique prefixes.
    let aliases: [String]
    /// Which prefixes of the name stand for it.
    let abbreviation: Abbreviation
    /// The arguments, as `.help` and the usage error show them.
    let usage: String
    /// How many arguments it takes; another count is a usage error before the handler runs.
    let arity: ClosedRange<Int>
    /// What it does, in one line.
    let help: String
    /// Whether `--safe` refuses it (it reads or writes files, runs programs or loads code).
    let isRefusedWhenSafe: Bool
    /// Whether it writes files.
    let writesFiles: Bool
    /// What completion offers after it.
    let completion: Completion
    /// Whether it runs on a dqlite database.
    let cluster: ClusterSupport
    /// What it does.
    let run: Handler

    /// A row whose handler ends in `.succeeded` (or throws).
    init(
        _ name: String, _ usage: String = "", arity: ClosedRange<Int> = 0...Int.max, aliases: [String] = [],
        abbreviation: Abbreviation = .unique, help: String, refusedWhenSafe: Bool = false, writesFiles: Bool = false,
        completion: Completion? = nil,
        cluster: ClusterSupport = .runs, perform: @escaping @Sendable (ShellSession, DotCommandLine) throws -> Void
    ) {
        self.init(
            name, usage, arity: arity, aliases: aliases, abbreviation: abbreviation, help: help, refusedWhenSafe: refusedWhenSafe,
            writesFiles: writesFiles, completion: completion, cluster: cluster,
            outcome: { session, line in
                try perform(session, line)
                return .succeeded
            })
    }

    /// A row whose handler decides the outcome (`.quit`, `.read`).
    init(
        _ name: String, _ usage: String = "", arity: ClosedRange<Int> = 0...Int.max, aliases: [String] = [],
        abbreviation: Abbreviation = .unique, help: String, refusedWhenSafe: Bool = false, writesFiles: Bool = false,
        completion: Completion? = nil,
        cluster: ClusterSupport = .runs, outcome: @escaping Handler
    ) {
        self.name = name
        self.usage = usage
        self.arity = arity
        self.aliases = aliases
        self.abbreviation = abbreviation
        self.help = help
        self.isRefusedWhenSafe = refusedWhenSafe
        self.writesFiles = writesFiles
        self.completion = completion ?? (usage == "on|off" ? .onOff : .none)
        self.cluster = cluster
        self.run = outcome
    }

    /// The names it answers to in full.
    var spellings: [String] { [name] + aliases }

    /// Whether a name starting with `prefix` is this command's.
    func isNamed(startingWith prefix: String) -> Bool {
        spellings.contains { $0.hasPrefix(prefix) }
    }

    /// Whether sqlite3's rule takes `prefix` as this command (never for cellar's own commands).
    func takes(_ prefix: String) -> Bool {
        guard case .sqlite3(let shortest, let except) = abbreviation else { return false }
        return prefix.count >= shortest && except[prefix] == nil && isNamed(startingWith: prefix)
    }

    /// The usage error of a wrong argument count.
    var usageMessage: String { "Usage: ." + name + (usage.isEmpty ? "" : " " + usage) }
}
