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

    /// The command's name (`query`).
    let name: String
    /// One line saying what it does.
    let abstract: String
    /// Positional arguments, in order.
    let arguments: [Argument]
    /// The command's own options (global options come from ``GlobalOptions``).
    let options: [OptionSpec]
    /// Extra paragraphs of help, if any.
    let discussion: String?
    /// Other names the command answers to (`up` for `setup`, as in dbmate).
    let aliases: [String]
    /// Whether it runs on a dqlite database.
    let cluster: ClusterSupport
    /// Whether it runs on a fleet (several databases, a pattern, `--databases-from`).
    let runsOnFleet: Bool

    init(
        name: String, cluster: ClusterSupport = .refused(nil), fleet: Bool = false, abstract: String, arguments: [Argument] = [],
        options: [OptionSpec] = [], discussion: String? = nil,
        aliases: [String] = []
    ) {
        self.name = name
        self.cluster = cluster
        self.runsOnFleet = fleet
        self.aliases = aliases
        self.abstract = abstract
        self.arguments = arguments
        self.options = options
        self.discussion = discussion
    }

    /// The name and the aliases.
    var names: [String] { [name] + aliases }

    /// The most positional arguments accepted, or nil for no limit.
    var maximumArgumentCount: Int? {
        arguments.contains(where: \.isRepeatable) ? nil : arguments.count
    }

    /// The fewest positional arguments accepted.
    var minimumArgumentCount: Int {
        arguments.filter { !$0.isOptional }.count
    }
}
