extension String {
    /// The string with every `target` replaced by `replacement` (without Foundation).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }

    /// The string without blanks and line breaks at its end.
    func trimmingTrailingBlanks() -> String {
        var result = Substring(self)
        while let last = result.last, last.isBlank {
            result = result.dropLast()
        }
        return String(result)
    }
}

extension Character {
    /// A blank or a line break (`\r\n` is one `Character`, so a set of single characters misses it).
    var isBlank: Bool { self == " " || self == "\t" || isNewline }
}
