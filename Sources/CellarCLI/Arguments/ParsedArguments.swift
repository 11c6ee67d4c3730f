/// The result of parsing a command line: what was given for each option, and the positional arguments.
///
/// An option is looked up by the ``OptionSpec`` value its command declares (`arguments.has(Self.force)`),
/// never by its name, so a misspelt name cannot read as "not given": it does not compile. Looking up an
/// option the command line was not parsed against, a flag as a value or a value as a flag, is a
/// programming error that an assertion catches in debug builds (every test run).
struct ParsedArguments: Sendable {
    /// Values of options that take one, by long name, in the order given.
    private var values: [String: [String]] = [:]
    /// Long names of the flags that were given, in the order given.
    private var flags: [String] = []
    /// Long names of the options the command line was parsed against.
    private let declared: Set<String>
    /// Positional arguments, in order.
    var positionals: [String] = []

    /// Arguments that may hold `options` (the global ones and the command's own).
    init(declaring options: [OptionSpec]) {
        declared = Set(options.map(\.long))
    }

    mutating func add(_ value: String, for option: OptionSpec) {
        values[option.long, default: []].append(value)
    }

    mutating func set(_ flag: OptionSpec) {
        flags.append(flag.long)
    }

    /// The last value given for `option` (later occurrences win, as in most CLIs).
    func value(of option: OptionSpec) -> String? { values(of: option).last }

    /// Every value given for a repeatable option, in order.
    func values(of option: OptionSpec) -> [String] {
        checkDeclared(option, takingValue: true)
        return values[option.long] ?? []
    }

    /// Whether a flag was given.
    func has(_ flag: OptionSpec) -> Bool {
        checkDeclared(flag, takingValue: false)
        return flags.contains(flag.long)
    }

    /// Whether `option` was given, flag or value.
    func gives(_ option: OptionSpec) -> Bool {
        option.takesValue ? value(of: option) != nil : has(option)
    }

    /// Which of two opposing flags (`--header`, `--no-header`) was given last, if either was.
    func lastFlag(of candidates: OptionSpec...) -> OptionSpec? { lastFlag(of: candidates) }

    /// Which of `candidates` (`-csv`, `-box`, …) was given last, if any was.
    func lastFlag(of candidates: [OptionSpec]) -> OptionSpec? {
        for candidate in candidates { checkDeclared(candidate, takingValue: false) }
        guard let last = flags.last(where: { name in candidates.contains { $0.long == name } }) else { return nil }
        return candidates.first { $0.long == last }
    }

    private func checkDeclared(_ option: OptionSpec, takingValue: Bool) {
        assert(declared.contains(option.long), "option '--\(option.long)' is looked up but not declared")
        assert(option.takesValue == takingValue, "option '--\(option.long)' is looked up as a \(takingValue ? "value" : "flag")")
    }
}
