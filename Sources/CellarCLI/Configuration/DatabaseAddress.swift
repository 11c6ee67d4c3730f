import CellarDqlite

/// Where a database lives, read from the text that names it (`--database`, `DATABASE_URL`, the shell's
/// FILE and `.open`, `--against`): a file SQLite opens on this machine, or a database of a dqlite
/// cluster, reached through its leader.
///
/// This is where an address becomes an engine: ``init(_:)`` is the one reading of the scheme, and
/// what the engines differ in before a connection exists is asked here, by capability. What they
/// differ in once one is open is asked of the connection (``SQLConnection``).
enum DatabaseAddress: Equatable, Sendable {
    /// A database file (or `:memory:`, or a `file:` URI), as SQLite opens it.
    case file(String)
    /// A `dqlite://HOST:PORT[,HOST:PORT…]/NAME` URL, parsed when a connection is made (a malformed one
    /// is then a usage error).
    case cluster(String)

    /// The address `text` names.
    init(_ text: String) {
        self = DqliteURL.isDqlite(text) ? .cluster(text) : .file(text)
    }

    /// The address as its user wrote it.
    var text: String {
        switch self {
        case .file(let path): path
        case .cluster(let url): url
        }
    }

    // MARK: - Capabilities

    /// Whether the database can be read without being written or created, and copied with SQLite's
    /// online backup API: a dry run and `migrate`'s checks before it opens for writing read it that
    /// way, a dry run rehearses on the copy, `--backup` and `--against` copy it. dqlite offers no
    /// backup API: there a dry run rehearses inside one transaction that is rolled back.
    var makesCopies: Bool {
        switch self {
        case .file: true
        case .cluster: false
        }
    }

    /// Whether cellar sets the connection up itself (SQLite's authorizer for `--safe`, read-only open
    /// flags for `--readonly`, `--load-extension`): a cluster's nodes run their own SQLite.
    var setsUpItsConnection: Bool {
        switch self {
        case .file: true
        case .cluster: false
        }
    }

    /// The file that opening the address would create: nil when it exists, or when the address names
    /// no file (`:memory:`; a cluster, which creates its database when first opened).
    var missingFile: String? {
        switch self {
        case .file(let path): DatabaseFile.missingFile(of: path)
        case .cluster: nil
        }
    }

    /// Whether there is no database at the address yet: a file path where nothing exists (never a
    /// `file:` URI or `:memory:`, which SQLite resolves itself; never a cluster).
    var isMissing: Bool {
        switch self {
        case .file(let path): !path.hasPrefix("file:") && path != ":memory:" && !DatabaseFile.exists(path)
        case .cluster: false
        }
    }

    /// Why `command` does not run at this address, as its ``CommandSpec/cluster`` declares; nil when
    /// it runs (always, on a file).
    func refusal(of command: CommandSpec) -> String? {
        refusal(of: command.name, support: command.cluster)
    }

    /// Why `name`, which declares `support`, does not run at this address; nil when it runs.
    func refusal(of name: String, support: ClusterSupport) -> String? {
        switch self {
        case .file: nil
        case .cluster(let url): support.refusal(of: name, url: url)
        }
    }

    /// Runs `command` the cluster's way when the address is a cluster (its refusals, its errors turned
    /// into diagnostics, ``RemoteCommands``); nil for a file, which the caller runs its own way.
    func runIfCluster(_ command: any Command.Type, _ invocation: Invocation) throws -> ExitStatus? {
        switch self {
        case .file: nil
        case .cluster: try RemoteCommands.run(command, invocation)
        }
    }
}

extension Configuration {
    /// The configured database's address.
    var address: DatabaseAddress { DatabaseAddress(databasePath) }
}
