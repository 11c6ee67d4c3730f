import Glibc

/// The file behind a configured database address, for the commands that handle the file itself
/// (`create`, `drop`, `wait`, backups, fleets).
enum DatabaseFile {
    /// The file system path of `address`: itself, or the path part of a `file:` URI; nil for
    /// `:memory:` and temporary databases, which have no file.
    static func path(of address: String) -> String? {
        if address.isEmpty || address == ":memory:" { return nil }
        guard address.hasPrefix("file:") else { return address }
        let path = String(address.dropFirst("file:".count).prefix { $0 != "?" && $0 != "#" })
        return path.isEmpty || path == ":memory:" ? nil : path
    }

    /// Whether something exists at `path`.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The files SQLite keeps beside a database: its write-ahead log, shared memory and rollback journal.
    static func companions(of path: String) -> [String] {
        ["-wal", "-shm", "-journal"].map { path + $0 }
    }
}
