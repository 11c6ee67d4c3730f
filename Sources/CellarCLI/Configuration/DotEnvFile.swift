import CellarKit

/// A `.env` file in the working directory, read as dbmate reads it (with godotenv): `KEY=value` lines,
/// `export ` before a key, `#` comments, values in single quotes taken as they are and in double quotes
/// with `\n`, `\"` and `\\` escapes. Only `DATABASE_URL` and `CELLAR_*` are taken, and never over a
/// variable the environment already has.
enum DotEnvFile {
    /// `environment` with the settings of the `.env` file at `path` added where it has none; unchanged
    /// when there is no such file.
    static func merged(_ environment: [String: String], file path: String) -> [String: String] {
        guard let bytes = try? FileContents.read(path, limit: 1 << 20) else { return environment }
        var result = environment
        for (key, value) in settings(in: String(decoding: bytes, as: UTF8.self))
        where key == "DATABASE_URL" || key.hasPrefix("CELLAR_") {
            if result[key] == nil { result[key] = value }
        }
        return result
    }

    /// The `KEY=value` pairs of `text`, in order.
    static func settings(in text: String) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            var line = Substring(rawLine).trimmingSpaces
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            if line.hasPrefix("export ") { line = line.dropFirst("export ".count).trimmingSpaces }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals].trimmingSpaces)
            guard !key.isEmpty, !key.contains(" ") else { continue }
            pairs.append((key, value(String(line[line.index(after: equals)...].trimmingSpaces))))
        }
        return pairs
    }

    /// A value as written after `=`: quoted, or bare up to a ` #` comment.
    private static func value(_ text: String) -> String {
        if text.hasPrefix("'"), let end = text.dropFirst().firstIndex(of: "'") {
            return String(text[text.index(after: text.startIndex)..<end])
        }
        if text.hasPrefix("\"") {
            var result = ""
            var escaping = false
            for character in text.dropFirst() {
                if escaping {
                    result.append(character == "n" ? "\n" : character)
                    escaping = false
                } else if character == "\\" {
                    escaping = true
                } else if character == "\"" {
                    return result
                } else {
                    result.append(character)
                }
            }
            return result
        }
        if let comment = text.firstRange(of: " #") { return String(text[..<comment.lowerBound].trimmingSpaces) }
        return text
    }
}

extension Substring {
    /// Without spaces and tabs at either end.
    fileprivate var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
