import Glibc

/// What a folder holds, read with `opendir`/`readdir`.
package enum DirectoryListing {
    /// Whether `path` names a folder (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `path` names a regular file (following symbolic links).
    package static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The names of the regular files in `path` (not `.` entries, not folders), sorted by their bytes.
    ///
    /// - Throws: ``SystemError`` when the folder cannot be opened.
    package static func fileNames(in path: String) throws -> [String] {
        guard let folder = opendir(path) else { throw SystemError(operation: "open folder \(path)", code: errno) }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != "..", isRegularFile(join(path, name)) { names.append(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// `folder/name`, without doubling a slash the folder already ends with.
    package static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
