/// `DATABASE_URL` as dbmate and twelve-factor apps write it, turned into the path SQLite opens.
///
/// dbmate's forms are all accepted: `sqlite:db/app.sqlite` (relative), `sqlite:/srv/app.sqlite`,
/// `sqlite://srv/app.sqlite` and `sqlite:///srv/app.sqlite` (absolute), likewise with `sqlite3:` and
/// `file:`; `%XX` escapes in the path are decoded. A query (`?mode=ro`) keeps the address a `file:` URI,
/// which SQLite reads itself (<https://sqlite.org/uri.html>).
enum DatabaseURL {
    /// The schemes that address a database file.
    static let fileSchemes = ["sqlite", "sqlite3", "file"]

    /// The database path `url` addresses.
    ///
    /// A `dqlite://` URL is returned as it is: the dqlite commands read it.
    /// - Throws: ``UsageError`` for another scheme, or an empty path.
    static func path(from url: String, variable: String = "DATABASE_URL") throws(UsageError) -> String {
        guard let colon = url.firstIndex(of: ":") else {
            throw UsageError("\(variable) '\(url)' has no scheme; use sqlite:PATH, sqlite3:PATH or file:PATH")
        }
        let scheme = url[..<colon].lowercased()
        if scheme == "dqlite" { return url }
        guard fileSchemes.contains(scheme) else {
            throw UsageError(
                "\(variable) has scheme '\(scheme)', which cellar does not support; use sqlite:PATH, sqlite3:PATH or file:PATH")
        }
        var rest = Substring(url[url.index(after: colon)...])
        var query = ""
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[mark...])
            rest = rest[..<mark]
        }
        var path = percentDecoded(rest)
        if path.hasPrefix("//") {
            // `scheme://host/path` and `scheme:///path` both name an absolute path, as in dbmate; a
            // `localhost` host is the empty one of RFC 8089.
            path = "/" + path.drop { $0 == "/" }
            if path.hasPrefix("/localhost/") { path = String(path.dropFirst("/localhost".count)) }
        }
        guard !path.isEmpty else { throw UsageError("\(variable) '\(url)' names no database file") }
        return query.isEmpty ? path : "file:" + path + query
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
