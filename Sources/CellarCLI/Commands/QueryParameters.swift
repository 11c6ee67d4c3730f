import CellarKit

/// The values of `--param`, split into positional and named ones, and bound per statement.
struct QueryParameters {
    /// Values for `?` and `?NNN`, in order.
    let positional: [Value]
    /// Values for `:name`, `@name` and `$name`, keyed by the name with its prefix.
    let named: [String: Value]

    /// Sorts `--param` values: `:a=1`, `@a=1`, `$a=1` are named, anything else positional.
    init(_ texts: [String]) throws(UsageError) {
        var positional: [Value] = []
        var named: [String: Value] = [:]
        for text in texts {
            if let first = text.first, ":@$".contains(first), let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                guard name.count > 1 else { throw UsageError("parameter '\(text)' has no name", command: "query") }
                named[name] = Self.value(of: String(text[text.index(after: equals)...]))
            } else {
                positional.append(Self.value(of: text))
            }
        }
        self.positional = positional
        self.named = named
    }

    /// A whole number binds as an integer and a decimal number as a real (in their canonical spelling,
    /// so `007` stays text); anything else binds as text.
    static func value(of text: String) -> Value {
        if let integer = Int64(text), String(integer) == text { return .integer(integer) }
        let isDecimal =
            text.contains(".") && !text.hasPrefix(".") && !text.hasSuffix(".")
            && text.allSatisfy { $0.isNumber || $0 == "." || $0 == "-" }
        if isDecimal, let real = Double(text), !(text.hasPrefix("0") && !text.hasPrefix("0.")),
            !text.hasPrefix("-0") || text.hasPrefix("-0.")
        {
            return .real(real)
        }
        return .text(text)
    }

    /// Binds every parameter `statement` has.
    ///
    /// - Throws: ``CommandFailure`` naming a parameter that has no value.
    func bind(to statement: some SQLStatement) throws {
        guard statement.parameterCount > 0 else { return }
        for index in 1...statement.parameterCount {
            let name = statement.parameterName(at: index)
            let value: Value?
            if let name, !name.hasPrefix("?") {
                value = named[name]
            } else {
                value = index <= positional.count ? positional[index - 1] : nil
            }
            guard let value else {
                throw CommandFailure(message: "no value for parameter \(name ?? "?\(index)"); give it with --param")
            }
            try statement.bind(value, at: index)
        }
    }
}
