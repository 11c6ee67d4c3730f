/// A dot-command as typed: its name and its arguments, split the way the sqlite3 shell splits them.
///
/// Arguments are separated by blanks; `'…'` and `"…"` quote an argument with blanks in it (the quotes
/// are removed; in `"…"` a backslash escapes the next character).
struct DotCommandLine: Equatable {
    /// The name without its dot (`schema`).
    let name: String
    /// The arguments, unquoted.
    let arguments: [String]
    /// Everything after the name, as typed, trimmed (for commands that take free text).
    let rest: String

    /// Parses `line`, which starts with `.` (after blanks).
    init(_ line: String) {
        var text = Substring(line).drop { $0 == " " || $0 == "\t" }
        if text.first == "." { text = text.dropFirst() }
        let nameEnd = text.firstIndex(where: \.isBlank) ?? text.endIndex
        name = String(text[..<nameEnd])
        let remainder = text[nameEnd...]
        rest = String(remainder.drop { $0 == " " || $0 == "\t" }).trimmingTrailingBlanks()
        arguments = Self.split(remainder)
    }

    private init(name: String, arguments: [String], rest: String) {
        self.name = name
        self.arguments = arguments
        self.rest = rest
    }

    /// The same line under the command's full name (a typed prefix resolved).
    func named(_ fullName: String) -> DotCommandLine {
        DotCommandLine(name: fullName, arguments: arguments, rest: rest)
    }

    private static func split(_ text: Substring) -> [String] {
        var arguments: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isBlank {
                index = text.index(after: index)
                continue
            }
            var argument = ""
            if character == "'" || character == "\"" {
                index = text.index(after: index)
                while index < text.endIndex, text[index] != character {
                    if character == "\"", text[index] == "\\", text.index(after: index) < text.endIndex {
                        index = text.index(after: index)
                    }
                    argument.append(text[index])
                    index = text.index(after: index)
                }
                if index < text.endIndex { index = text.index(after: index) }
            } else {
                while index < text.endIndex, !text[index].isBlank {
                    argument.append(text[index])
                    index = text.index(after: index)
                }
            }
            arguments.append(argument)
        }
        return arguments
    }
}
