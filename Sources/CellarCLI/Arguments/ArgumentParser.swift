/// Parses a command line the way swift-argument-parser users expect: `--opt value`, `--opt=value`,
/// `-o value`, `-ovalue`, `--` ends options, global options before or after the command.
struct ArgumentParser {
    /// The options recognised for every command.
    let globalOptions: [OptionSpec]

    /// Splits `arguments` into the command name (the first positional word) and the rest.
    ///
    /// Values of global options are skipped over, so `cellar -d x.db query …` finds `query`.
    func commandName(in arguments: [String]) -> String? {
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            if token == "--" { return index + 1 < arguments.count ? arguments[index + 1] : nil }
            if token.hasPrefix("-"), token != "-" {
                if let option = lookUp(token, in: globalOptions), option.takesValue, !token.contains("="), !isAttachedShort(token)
                {
                    index += 1
                }
            } else {
                return token
            }
            index += 1
        }
        return nil
    }

    /// Parses every option and positional argument for `command` (whose name is dropped).
    ///
    /// An option given more than once keeps every value; commands read the last one (later occurrences
    /// win, as in most CLIs) unless the option is repeatable.
    ///
    /// - Throws: ``UsageError`` for an unknown option (with a suggestion), a missing value, or a value
    ///   given to a flag.
    func parse(_ arguments: [String], for command: CommandSpec?) throws(UsageError) -> ParsedArguments {
        let options = globalOptions + (command?.options ?? [])
        var parsed = ParsedArguments(declaring: options)
        var index = 0
        var droppedCommandName = command == nil
        var optionsEnded = false
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if optionsEnded || !token.hasPrefix("-") || token == "-" {
                if !droppedCommandName, command?.names.contains(token) == true {
                    droppedCommandName = true
                } else {
                    parsed.positionals.append(token)
                }
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            guard let option = lookUp(token, in: options) else {
                throw unknownOption(token, among: options, command: command)
            }
            guard option.takesValue else {
                if token.contains("=") {
                    throw UsageError("option '--\(option.long)' does not take a value", command: command?.name)
                }
                parsed.set(option)
                continue
            }
            if let value = inlineValue(of: token, option: option) {
                parsed.add(value, for: option)
            } else if index < arguments.count {
                parsed.add(arguments[index], for: option)
                index += 1
            } else {
                throw UsageError("option '\(token)' needs a value <\(option.valueName ?? "value")>", command: command?.name)
            }
        }
        return parsed
    }

    private func lookUp(_ token: String, in options: [OptionSpec]) -> OptionSpec? {
        if token.hasPrefix("--") {
            let name = token.dropFirst(2).prefix { $0 != "=" }
            return options.first { $0.isNamed(name) }
        }
        let word = token.dropFirst()
        guard let letter = word.first else { return nil }
        guard word.count > 1 else { return options.first { $0.short == letter } ?? options.first { $0.otherShort == letter } }
        // `-header`: a long name with one dash, as sqlite3 spells its options. Otherwise only a short
        // option that takes a value may have more letters after it (`-dfile.db`); a flag's letter with
        // more after it is unknown, never that flag (`-header` once meant `-h`, help, and exit 0).
        if let long = options.first(where: { $0.long == word }) { return long }
        return options.first { $0.short == letter && $0.takesValue }
    }

    private func isAttachedShort(_ token: String) -> Bool {
        !token.hasPrefix("--") && token.count > 2 && !globalOptions.contains { $0.long == token.dropFirst() }
    }

    private func inlineValue(of token: String, option: OptionSpec) -> String? {
        if token.hasPrefix("--") || option.long == token.dropFirst() {
            guard let equals = token.firstIndex(of: "=") else { return nil }
            return String(token[token.index(after: equals)...])
        }
        return token.count > 2 ? String(token.dropFirst(2)) : nil
    }

    private func unknownOption(_ token: String, among options: [OptionSpec], command: CommandSpec?) -> UsageError {
        let name = token.hasPrefix("--") ? String(token.dropFirst(2).prefix { $0 != "=" }) : String(token.dropFirst())
        var message = "unknown option '\(token.prefix { $0 != "=" })'"
        if let suggestion = NearMiss.suggestion(for: name, among: options.flatMap { [$0.long] + $0.aliases }) {
            message += "; did you mean '--\(suggestion)'?"
        }
        return UsageError(message, command: command?.name)
    }
}
