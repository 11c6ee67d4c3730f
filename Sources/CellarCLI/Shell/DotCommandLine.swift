/// A dot-command as typed: its name and its arguments, split the way the sqlite3 shell splits them.
///
/// Arguments are separated by blanks; `'…'` and `"…"` quote an argument with blanks in it (the quotes
/// are removed). In `"…"` and in an unquoted argument, backslash escapes are resolved as sqlite3 does
/// (`\a`, `\b`, `\t`, `\n`, `\v`, `\f`, `\r`, `\\`, `\"`, `\'`, octal `\NNN`; another character stands for itself); `'…'` is
/// taken literally.
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
            var raw = ""
            if character == "'" || character == "\"" {
                index = text.index(after: index)
                while index < text.endIndex, text[index] != character {
                    // In "…" a backslash keeps the next character (a quote included) for the escapes below.
                    if character == "\"", text[index] == "\\", text.index(after: index) < text.endIndex {
                        raw.append(text[index])
                        index = text.index(after: index)
                    }
                    raw.append(text[index])
                    index = text.index(after: index)
                }
                if index < text.endIndex { index = text.index(after: index) }
                arguments.append(character == "'" ? raw : resolvingEscapes(raw))
            } else {
                while index < text.endIndex, !text[index].isBlank {
                    raw.append(text[index])
                    index = text.index(after: index)
                }
                arguments.append(resolvingEscapes(raw))
            }
        }
        return arguments
    }

    /// `text` with sqlite3's backslash escapes resolved.
    private static func resolvingEscapes(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                result.append(bytes[index])
                index += 1
                continue
            }
            index += 1
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "t"): result.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "n"): result.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "r"): result.append(UInt8(ascii: "\r"))
            case UInt8(ascii: "a"): result.append(0x07)
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "v"): result.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(escaped - UInt8(ascii: "0"))
                for _ in 0..<2 where index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                    value = value * 8 + Int(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                }
                result.append(UInt8(truncatingIfNeeded: value))
            default: result.append(escaped)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `text` read as sqlite3's `integerValue` reads a number: an optional sign, then decimal digits
    /// or `0x` and hex digits, stopping at the first other character; no digits is 0.
    static func integerValue(_ text: String) -> Int64 {
        var bytes = text.drop { $0 == " " || $0 == "\t" }
        var sign: Int64 = 1
        if bytes.first == "-" || bytes.first == "+" {
            if bytes.first == "-" { sign = -1 }
            bytes = bytes.dropFirst()
        }
        let isHex = bytes.hasPrefix("0x") || bytes.hasPrefix("0X")
        if isHex { bytes = bytes.dropFirst(2) }
        let digits = bytes.prefix { isHex ? $0.isHexDigit : ("0"..."9").contains($0) }
        return sign * (Int64(digits.prefix(18), radix: isHex ? 16 : 10) ?? 0)
    }
}
