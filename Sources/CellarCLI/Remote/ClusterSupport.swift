/// Whether a command or dot-command runs on a dqlite database, declared in its own row
/// (``CommandSpec``, ``DotCommand``), and if not, why.
enum ClusterSupport: Sendable {
    /// Its code runs through CellarKit's engine seam, on a file or a cluster alike.
    case runs
    /// It needs something of a local SQLite file or connection that the cluster does not offer; the
    /// reason completes the sentence "'NAME' …" (nil: it has not been made to work yet).
    case refused(String?)

    /// Copies through SQLite's online backup API (`restore`, `--backup`, `.backup`, `.save`, `.restore`).
    static let needsBackupAPI = refused("needs SQLite's online backup API on a local file, which a dqlite cluster does not offer")

    /// Works on a database file only (`create`, `drop`).
    static let filesOnly = refused(
        "works on database files; a dqlite database is created by the cluster when first opened, and dropped by its operators")

    /// The one-line refusal of `name` on the dqlite database at `url`; nil when it runs.
    func refusal(of name: String, url: String) -> String? {
        switch self {
        case .runs: nil
        case .refused(let reason?): "'\(name)' \(reason) (\(url))"
        case .refused(nil): "'\(name)' does not work on a dqlite database yet (\(url)); run it on a file"
        }
    }
}
