/// The result of parsing a command line: option values by long name and positional arguments.
struct ParsedArguments: Sendable {
    /// Values of options that take one, in the order given.
    private(set) var values: [String: [String]] = [:]
    /// Flags that were given, in the order given.
    private(set) var flags: [String] = []
    /// Positional arguments, in order.
    var positionals: [String] = []

    mutating func add(_ value: String, for option: String) {
        values[option, default: []].append(value)
    }

    mutating func set(flag: String) {
        flags.append(flag)
    }

    /// The last value given for `option` (later occurrences win, as in most CLIs).
    func value(_ option: String) -> String? { values[option]?.last }

    /// Every value given for a repeatable option.
    func allValues(_ option: String) -> [String] { values[option] ?? [] }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Which of two opposing flags (`--header`, `--no-header`) was given last, if either was.
    func lastFlag(of candidates: String...) -> String? {
        flags.last { candidates.contains($0) }
    }

    /// The value of `option` as a whole number, or a usage error naming the option.
    func integer(_ option: String) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let number = Int(text) else {
            throw UsageError("option '--\(option)' expects a whole number, not '\(text)'")
        }
        return number
    }
}
