/// One entry of the configuration table (docs/command-line.md): its flag, its environment variable and its default.
struct Setting: Sendable {
    /// The option that sets it.
    let option: OptionSpec
    /// The environment variable that sets it when the flag is absent, if any.
    let environmentVariable: String?
    /// The value when neither is given.
    let defaultValue: String

    /// The value in force: the flag beats the environment, which beats the default.
    func resolve(_ arguments: ParsedArguments, environment: [String: String]) -> String {
        if let flagValue = arguments.value(of: option) { return flagValue }
        if let variable = environmentVariable, let value = environment[variable], !value.isEmpty { return value }
        return defaultValue
    }

    /// Whether neither the flag nor the environment gives a value, so that the default is in force.
    func isDefault(_ arguments: ParsedArguments, environment: [String: String]) -> Bool {
        guard arguments.value(of: option) == nil else { return false }
        guard let variable = environmentVariable else { return true }
        return (environment[variable] ?? "").isEmpty
    }
}
