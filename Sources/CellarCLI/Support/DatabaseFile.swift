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

    /// The file of `address` when nothing exists there yet (a command that fails on a file it created
    /// removes it again, see ``removeIfEmpty(_:)``); nil when it exists or `address` has no file.
    static func missingFile(of address: String) -> String? {
        path(of: address).flatMap { exists($0) ? nil : $0 }
    }

    /// Removes the database file a failed command created, when nothing was committed to it (0 bytes),
    /// with the journal SQLite may have left beside it.
    static func removeIfEmpty(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_size == 0 else { return }
        for file in [path] + companions(of: path) { unlink(file) }
    }

    /// Whether something exists at `path`.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether the file at `path` starts with the 16 bytes every SQLite database file starts with.
    /// SQLite opens an empty or very short file as an empty database whose `integrity_check` is `ok`:
    /// restored over a database, it would drop every table.
    static func hasSQLiteHeader(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 16)
        let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 16) }
        return count == 16 && header == Array("SQLite format 3".utf8) + [0]
    }

    /// The files SQLite keeps beside a database: its write-ahead log, shared memory and rollback journal.
    static func companions(of path: String) -> [String] {
        ["-wal", "-shm", "-journal"].map { path + $0 }
    }
}
