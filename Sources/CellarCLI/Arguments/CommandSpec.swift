/// What a command is called, what it takes and how its help reads.
struct CommandSpec: Sendable {
    /// A positional argument in the usage line and help.
    struct Argument: Sendable {
        /// Placeholder (`sql`, `file`).
        let name: String
        /// One line of help.
        let help: String
        /// Whether it may be omitted.
        let isOptional: Bool
        /// Whether several may be given.
        let isRepeatable: Bool
        /// What shells complete for it; inferred from `name` when not given.
        let completion: ValueCompletion

        init(
            _ name: String, help: String, optional: Bool = false, repeatable: Bool = false,
            completion: ValueCompletion? = nil
        ) {
            self.name = name
            self.help = help
            self.isOptional = optional
            self.isRepeatable = repeatable
            self.completion = completion ?? .inferred(from: name)
        }

        /// `<file> ...`, `[<v>]`.
        var synopsis: String {
            let core = "<\(name)>" + (isRepeatable ? " ..." : "")
            return isOptional ? "[\(core)]" : core
        }
    }

    /// One example of the command in use, shown under EXAMPLES by `--help`, the man page and the
    /// reference: a command line exactly as a user types it, and what it does.
    struct Example: Sendable {
        /// The command line, starting with `cellar` (`cellar migrate --dry-run`).
        let commandLine: String
        /// One line saying what it does.
        let summary: String

        init(_ commandLine: String, _ summary: String) {
            self.commandLine = commandLine
            self.summary = summary
        }
    }

    /// The command's name (`query`).
    let name: String
    /// One line saying what it does.
    let abstract: String
    /// Positional arguments, in order.
    let arguments: [Argument]
    /// The command's own options (global options come from ``GlobalOptions``).
    let options: [OptionSpec]
    /// Pairs of its options that may not be given together.
    let conflicts: [OptionConflict]
    /// Extra paragraphs of help, if any.
    let discussion: String?
    /// Other names the command answers to (`up` for `setup`, as in dbmate).
    let aliases: [String]
    /// Whether it runs on a dqlite database.
    let cluster: ClusterSupport
    /// Whether it runs on a fleet (several databases, a pattern, `--databases-from`).
    let runsOnFleet: Bool
    /// Command lines that show it in use (every command has at least one; a test checks that each
    /// parses against this spec).
    let examples: [Example]

    init(
        name: String, cluster: ClusterSupport = .refused(nil), fleet: Bool = false, abstract: String, arguments: [Argument] = [],
        options: [OptionSpec] = [], conflicts: [OptionConflict] = [], discussion: String? = nil,
        aliases: [String] = [], examples: [Example] = []
    ) {
        self.name = name
        self.cluster = cluster
        self.runsOnFleet = fleet
        self.aliases = aliases
        self.abstract = abstract
        self.arguments = arguments
        self.options = options
        self.conflicts = conflicts
        self.discussion = discussion
        self.examples = examples
    }

    /// The name and the aliases.
    var names: [String] { [name] + aliases }

    /// The most positional arguments accepted, or nil for no limit.
    var maximumArgumentCount: Int? {
        arguments.contains(where: \.isRepeatable) ? nil : arguments.count
    }

    /// The usage error for the first of its ``conflicts`` that `arguments` gives both options of.
    func refuseConflicts(in arguments: ParsedArguments) throws(UsageError) {
        if let conflict = conflicts.first(where: { arguments.gives($0.first) && arguments.gives($0.second) }) {
            throw UsageError(conflict.message, command: name)
        }
    }

    /// The fewest positional arguments accepted.
    var minimumArgumentCount: Int {
        arguments.filter { !$0.isOptional }.count
    }
}
