/// One option a command accepts.
struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes (`database`).
    let long: String
    /// The one-letter name without its dash (`d`), if any.
    let short: Character?
    /// The placeholder for the value (`path`), or nil for a flag that takes none.
    let valueName: String?
    /// Whether the option may be given more than once.
    let isRepeatable: Bool
    /// One line of help.
    let help: String
    /// What shells complete for the value (nothing for a flag); inferred from `valueName` when not given.
    let completion: ValueCompletion
    /// Other names it answers to, as other tools spell it (`--format` for `--mode`, `-v` for `-V`).
    var aliases: [String] = []
    /// Another one-letter name, as other tools spell it.
    var otherShort: Character? = nil

    init(
        _ long: String, short: Character? = nil, value valueName: String? = nil, repeatable: Bool = false,
        completion: ValueCompletion? = nil, help: String
    ) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.isRepeatable = repeatable
        self.help = help
        self.completion = valueName == nil ? .none : completion ?? .inferred(from: valueName)
    }

    /// The option, also answering to `aliases` and `otherShort`.
    func answering(to aliases: [String] = [], short: Character? = nil) -> OptionSpec {
        var result = self
        result.aliases = aliases
        result.otherShort = short
        return result
    }

    /// Whether `name` (without dashes) is one of its long names.
    func isNamed(_ name: some StringProtocol) -> Bool {
        long == name || aliases.contains { $0 == name }
    }

    /// Whether the option takes a value.
    var takesValue: Bool { valueName != nil }

    /// How the option is written in help: `-d, --database <path>`.
    var synopsis: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(long)"
        if let valueName { text += " <\(valueName)>" }
        if isRepeatable { text += " ..." }
        return text
    }
}
