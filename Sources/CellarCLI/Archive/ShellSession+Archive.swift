import CellarKit
import Glibc

/// sqlite3's `.archive` (`.ar`): SQLite archives, the table `sqlar(name, mode, mtime, sz, data)` that
/// sqlite3 writes, with the file's bytes zlib-compressed when that makes them smaller. The same table,
/// the same compression and the same walk of folders as sqlite3's, so each reads the other's.
extension ShellSession {
    /// sqlite3's definition of the table, so that `.schema` shows the same.
    static let archiveTable = """
        CREATE TABLE IF NOT EXISTS sqlar(
          name TEXT PRIMARY KEY,  -- name of the file
          mode INT,               -- access permissions
          mtime INT,              -- last modification time
          sz INT,                 -- original file size
          data BLOB               -- compressed content
        )
        """

    func archive(_ command: DotCommandLine) throws {
        var request = try ArchiveRequest(command.arguments)
        if request.wantsHelp { return writeOutput(ArchiveRequest.help) }
        let archive: Database
        if let file = request.file {
            let writes = request.action != .list && request.action != .extract
            let opener = DatabaseOpener(configuration)
            do {
                archive = try opener.open(
                    file, options: opener.options(mode: writes ? .readWriteCreate : .readOnly, defensive: true))
                try SQLArchiveFunctions.register(on: archive)
            } catch let error as SQLiteError {
                throw DotCommandError("cannot open archive '\(file)': \(error.message)")
            }
        } else {
            archive = try database
        }
        // As sqlite3: a name's trailing slashes do not count.
        if request.action != .create, request.action != .update, request.action != .insert {
            request.names = request.names.map { name in
                var name = Substring(name)
                while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
                return String(name)
            }
        }
        switch request.action {
        case .create, .update, .insert: try addFiles(request, to: archive)
        case .list: try listArchive(request, archive)
        case .extract: try extractArchive(request, archive)
        case .remove: try removeFromArchive(request, archive)
        case nil: break
        }
    }

    // MARK: - Names in the archive

    /// sqlite3's selection: every entry, or those named (and, for a folder, what is in it).
    private func whereClause(_ request: ArchiveRequest) -> (sql: String, arguments: [any ValueConvertible]) {
        guard !request.names.isEmpty else { return ("1", []) }
        let operation = request.usesGlob ? "GLOB" : "="
        var arguments: [any ValueConvertible] = []
        let terms = request.names.map { name in
            arguments += [name, name.utf8.count + 1, name + "/"]
            return "name \(operation) ? OR substr(name, 1, ?) \(operation) ?"
        }
        return (terms.joined(separator: " OR "), arguments)
    }

    /// Every name given must be in the archive (as sqlite3 checks before listing, extracting, removing).
    private func checkNamesExist(_ request: ArchiveRequest, _ archive: Database) throws {
        let sql = request.usesGlob ? "SELECT 1 FROM sqlar WHERE name GLOB ?" : "SELECT 1 FROM sqlar WHERE name = ?"
        for name in request.names where try archive.scalar(sql, [name]) == nil {
            throw DotCommandError("not found in archive: \(name)")
        }
    }

    private func listArchive(_ request: ArchiveRequest, _ archive: Database) throws {
        try checkNamesExist(request, archive)
        let (condition, arguments) = whereClause(request)
        // sqlite3's queries, so that SQLite picks the same order: the names alone come from the
        // primary key's index (in name order), the long listing from the table (in rowid order).
        let columns = request.isVerbose ? "mode, sz, datetime(mtime, 'unixepoch'), name" : "name"
        let statement = try archive.prepareSingle("SELECT \(columns) FROM sqlar WHERE \(condition)")
        for (index, argument) in arguments.enumerated() { try statement.bind(argument, at: index + 1) }
        while try statement.step() {
            guard request.isVerbose else {
                writeOutput(shown(statement.value(at: 0).textValue ?? ""))
                continue
            }
            let size = String(statement.int64(at: 1))
            let line =
                Self.modeText(Int(statement.int64(at: 0))) + " "
                + String(repeating: " ", count: max(10 - size.count, 0)) + size + "  "
                + (statement.value(at: 2).textValue ?? "") + "  " + (statement.value(at: 3).textValue ?? "")
            writeOutput(shown(line))
        }
    }

    /// sqlite3's `lsmode()`: the file type (`-`, `d`, `l`, else `?`) and the nine permission letters.
    static func modeText(_ mode: Int) -> String {
        let type: Character
        switch UInt32(truncatingIfNeeded: mode) & S_IFMT {
        case S_IFLNK: type = "l"
        case S_IFREG: type = "-"
        case S_IFDIR: type = "d"
        default: type = "?"
        }
        var text = String(type)
        for shift in [6, 3, 0] {
            let bits = mode >> shift
            text += (bits & 4 != 0 ? "r" : "-") + (bits & 2 != 0 ? "w" : "-") + (bits & 1 != 0 ? "x" : "-")
        }
        return text
    }

    private func removeFromArchive(_ request: ArchiveRequest, _ archive: Database) throws {
        try checkNamesExist(request, archive)
        let (condition, arguments) = whereClause(request)
        try archive.execute("DELETE FROM sqlar WHERE \(condition)", arguments)
    }

    // MARK: - Adding files

    /// One file, folder or symbolic link to store.
    private struct Entry {
        let name: String
        let path: String
        let status: stat
    }

    /// `-c` (the table made anew), `-u` (files whose mode or mtime changed) and `-i` (all): every FILE,
    /// a folder with everything in it, in one savepoint.
    private func addFiles(_ request: ArchiveRequest, to archive: Database) throws {
        try archive.execute("SAVEPOINT ar")
        do {
            if request.action == .create { try archive.execute("DROP TABLE IF EXISTS sqlar") }
            try archive.execute(Self.archiveTable)
            let insert = try archive.prepareSingle(
                "REPLACE INTO sqlar(name, mode, mtime, sz, data) VALUES (?1, ?2, ?3, ?4, sqlar_compress(?5))")
            let unchanged = try archive.prepareSingle("SELECT 1 FROM sqlar WHERE name = ?1 AND mode = ?2 AND mtime = ?3")
            for name in request.names {
                try walk(name, in: request.directory) { entry in
                    let mode = Int64(entry.status.st_mode)
                    let mtime = Int64(entry.status.st_mtim.tv_sec)
                    if request.action == .update {
                        try unchanged.reset()
                        try unchanged.bind(entry.name, at: 1)
                        try unchanged.bind(mode, at: 2)
                        try unchanged.bind(mtime, at: 3)
                        if try unchanged.step() { return }
                    }
                    let size: Int64
                    let data: Value
                    switch entry.status.st_mode & S_IFMT {
                    case S_IFDIR:
                        size = 0
                        data = .null
                    case S_IFLNK:
                        size = -1
                        data = .text(try Self.linkTarget(entry.path))
                    default:
                        let bytes: [UInt8]
                        do {
                            bytes = try FileContents.read(entry.path)
                        } catch let error as SystemError {
                            throw DotCommandError("cannot read '\(entry.path)': \(String(cString: strerror(error.code)))")
                        }
                        size = Int64(bytes.count)
                        data = .blob(bytes)
                    }
                    try insert.reset()
                    for (index, value) in [Value.text(entry.name), .integer(mode), .integer(mtime), .integer(size), data]
                        .enumerated()
                    {
                        try insert.bind(value, at: index + 1)
                    }
                    while try insert.step() {}
                    if request.isVerbose { writeOutput(shown(entry.name)) }
                }
            }
        } catch {
            try? archive.execute("ROLLBACK TO ar; RELEASE ar")
            throw error
        }
        try archive.execute("RELEASE ar")
    }

    /// Calls `body` for `name` (relative to `directory`) and, for a folder, everything under it: each
    /// folder before what it holds, its entries in the order the system lists them, as sqlite3's
    /// `fsdir` walks; symbolic links are stored, not followed; sockets and devices are left out.
    private func walk(_ name: String, in directory: String?, _ body: (Entry) throws -> Void) throws {
        let path = directory.map { $0 + "/" + name } ?? name
        var status = stat()
        guard lstat(path, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            // sqlite3 reports this SQL error of its fsdir() on standard output.
            writeOutput("ERROR: cannot stat file: \(shown(path))")
            throw DotCommandError("cannot stat file: \(path): \(reason)")
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFDIR || type == S_IFLNK else { return }
        try body(Entry(name: name, path: path, status: status))
        guard type == S_IFDIR else { return }
        guard let folder = opendir(path) else {
            throw DotCommandError("cannot open directory: \(path): \(String(cString: strerror(errno)))")
        }
        defer { closedir(folder) }
        while let item = readdir(folder) {
            let child = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if child == "." || child == ".." { continue }
            try walk(name + "/" + child, in: directory, body)
        }
    }

    private static func linkTarget(_ path: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { room in
            room.baseAddress.map { readlink(path, $0, room.count - 1) } ?? -1
        }
        guard count >= 0 else { throw DotCommandError("cannot read link '\(path)': \(String(cString: strerror(errno)))") }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - Extracting

    /// `-x`: each entry written as a file, folder or symbolic link under `-C DIR` (or here), with its
    /// mode and mtime; folders get their mtime again at the end, after what was written into them.
    /// Names with `..` are skipped as sqlite3 skips them; an absolute name, or a path that would go
    /// through a symbolic link, is refused before anything is written.
    private func extractArchive(_ request: ArchiveRequest, _ archive: Database) throws {
        try checkNamesExist(request, archive)
        let (condition, arguments) = whereClause(request)
        let selection = "FROM sqlar WHERE (\(condition)) AND name NOT GLOB '*..[/\\]*'"
        for name in try archive.query("SELECT name \(selection)", arguments).compactMap({ $0.values.first?.textValue }) {
            if name.hasPrefix("/") {
                throw DotCommandError("refusing to extract '\(name)': an absolute name would be written outside the folder")
            }
        }
        let prefix = request.directory.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? ""
        for foldersOnly in [false, true] {
            let statement = try archive.prepareSingle(
                // A symbolic link's target is stored as it is, with sz -1 (sqlite3 3.40 fails on it).
                "SELECT name, mode, mtime, CASE WHEN sz < 0 THEN data ELSE sqlar_uncompress(data, sz) END \(selection)"
                    + (foldersOnly ? " AND data IS NULL" : ""))
            for (index, argument) in arguments.enumerated() { try statement.bind(argument, at: index + 1) }
            while try statement.step() {
                let name = statement.value(at: 0).textValue ?? ""
                let path = prefix + name
                if !foldersOnly, request.isVerbose { writeOutput(shown(path)) }
                try Self.checkNoLink(in: name, under: prefix)
                try Self.write(
                    path, mode: mode_t(truncatingIfNeeded: statement.int64(at: 1)), mtime: statement.int64(at: 2),
                    data: statement.value(at: 3))
            }
        }
    }

    /// Refuses a name whose folders (under `prefix`) include a symbolic link: writing through it could
    /// reach any place on the system.
    private static func checkNoLink(in name: String, under prefix: String) throws {
        var path = prefix
        for component in name.split(separator: "/").dropLast() {
            path += component
            var status = stat()
            if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
                throw DotCommandError("refusing to extract '\(name)': '\(path)' is a symbolic link")
            }
            path += "/"
        }
    }

    /// sqlite3's `writefile(path, data, mode, mtime)`: a folder, a symbolic link or a file, with the
    /// folders above it made first when missing.
    private static func write(_ path: String, mode: mode_t, mtime: Int64, data: Value) throws {
        do {
            try writeEntry(path, mode: mode, data: data)
        } catch let error as SystemError where error.code == ENOENT {
            try makeParents(of: path)
            try writeEntry(path, mode: mode, data: data)
        } catch let error as SystemError {
            throw DotCommandError("\(error.operation): \(path): \(String(cString: strerror(error.code)))")
        }
        guard mtime >= 0 else { return }
        var times = [timespec(tv_sec: time(nil), tv_nsec: 0), timespec(tv_sec: Int(mtime), tv_nsec: 0)]
        guard utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw DotCommandError("failed to set the time of \(path): \(String(cString: strerror(errno)))")
        }
    }

    private static func writeEntry(_ path: String, mode: mode_t, data: Value) throws {
        switch mode & S_IFMT {
        case S_IFLNK:
            guard symlink(data.textValue ?? "", path) == 0 else {
                throw SystemError(operation: "failed to create symlink", code: errno)
            }
        case S_IFDIR:
            guard mkdir(path, mode & 0o7777) != 0 else { return }
            let code = errno
            var status = stat()
            guard code == EEXIST, lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                throw SystemError(operation: "failed to create directory", code: code)
            }
            guard status.st_mode & 0o777 == mode & 0o777 || chmod(path, mode & 0o777) == 0 else {
                throw SystemError(operation: "failed to create directory", code: errno)
            }
        default:
            // Not through a symbolic link already there: O_NOFOLLOW.
            let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o666)
            guard descriptor >= 0 else { throw SystemError(operation: "failed to write file", code: errno) }
            defer { close(descriptor) }
            let bytes: [UInt8]
            switch data {
            case .blob(let blob): bytes = blob
            case .text(let text): bytes = Array(text.utf8)
            default: bytes = []
            }
            try FileContents.write(bytes, to: descriptor, operation: "failed to write file")
            if mode != 0, fchmod(descriptor, mode & 0o777) != 0 {
                throw SystemError(operation: "failed to write file", code: errno)
            }
        }
    }

    /// Makes the folders above `path` (0777 less the umask, as sqlite3 does).
    private static func makeParents(of path: String) throws {
        var current = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/").dropLast() {
            current += component
            if mkdir(current, 0o777) != 0, errno != EEXIST {
                throw DotCommandError("failed to create directory: \(current): \(String(cString: strerror(errno)))")
            }
            current += "/"
        }
    }
}
