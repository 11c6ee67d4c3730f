import Glibc

/// Paths worked out by their text: joined, made absolute, and put in a normal form, so that one file
/// named in two spellings (`seeds/./x.sql`, `seeds//x.sql`) is recognised as one.
package enum FilePath {
    /// `path` itself when absolute or when `folder` is nil, otherwise `folder/path`.
    package static func resolve(_ path: String, relativeTo folder: String?) -> String {
        guard let folder, !path.hasPrefix("/") else { return path }
        return DirectoryListing.join(folder, path)
    }

    /// The folder part of `path` (`seeds` for `seeds/x.sql`, `.` for `x.sql`, `/` for `/x.sql`).
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// `path` made absolute against the working directory, with `.` and empty components removed and
    /// `..` resolved by the text (a symbolic link is not followed).
    package static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : DirectoryListing.join(workingDirectory(), path)
        var parts: [Substring] = []
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The process's working directory (`.` if it cannot be read).
    package static func workingDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
