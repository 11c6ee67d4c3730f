import CellarKit

/// What `cellar --version` prints.
enum VersionInfo {
    /// cellar's own version.
    static let version = "0.1.0"

    /// The `--version` option.
    static let option = OptionSpec(
        "version", short: "V", help: "Show the version of cellar and of the SQLite library (also -v)."
    ).answering(short: "v")

    /// `cellar 0.1.0 (SQLite 3.40.1)`.
    static var text: String { "cellar \(version) (SQLite \(Database.libraryVersion))" }
}
