extension ColorChoice {
    /// The last `--color` value on a raw command line (before `--`), for errors found before the
    /// command line could be parsed, such as an unknown command or option.
    static func lastGiven(in arguments: [String]) -> ColorChoice? {
        var choice: ColorChoice?
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let token = arguments[index]
            if token == "--color", index + 1 < arguments.count {
                choice = ColorChoice(rawValue: arguments[index + 1]) ?? choice
                index += 1
            } else if token.hasPrefix("--color=") {
                choice = ColorChoice(rawValue: String(token.dropFirst("--color=".count))) ?? choice
            }
            index += 1
        }
        return choice
    }

    /// `true` or `false` when the choice forces colour on or off; `nil` for `auto`.
    var forcedColor: Bool? {
        switch self {
        case .always: true
        case .never: false
        case .auto: nil
        }
    }
}
