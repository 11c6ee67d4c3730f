import Glibc

extension Database {
    /// Registers `readfile(path)` and `writefile(path, data)` with the sqlite3 CLI's semantics,
    /// direct-only so that views and triggers of a database file cannot call them.
    ///
    /// `readfile` returns the file's bytes as a blob (NULL for a NULL path); a file that does not exist
    /// or cannot be read is an error naming the path as resolved, never a silent NULL that a seed would
    /// record as data. `writefile` writes a blob (or text) to a file, replacing it, and returns the
    /// number of bytes written.
    ///
    /// - Parameter folder: the folder relative paths are resolved against (a seed's own folder); the
    ///   working directory when nil. Calling this again replaces the functions with ones using `folder`.
    public func registerFileFunctions(relativeTo folder: String? = nil) throws {
        fileFunctionsFolder = .some(folder)
        try createFunction("readfile", argumentCount: 1, isDirectOnly: true) { [weak self] arguments in
            guard case .text(let path) = arguments[0] else { return .null }
            let resolved = FilePath.resolve(path, relativeTo: folder)
            do {
                return .blob(try FileContents.read(resolved, limit: self?.lengthLimit ?? 0))
            } catch FileContents.ReadRefusal.notRegularFile {
                throw FileFunctionError(message: "readfile: '\(resolved)' is not a regular file")
            } catch FileContents.ReadRefusal.tooLarge(let limit) {
                throw FileFunctionError(
                    message: "readfile: '\(resolved)' is larger than SQLite's length limit (\(limit) bytes)")
            } catch let error as SystemError {
                throw FileFunctionError(
                    message: "readfile: cannot read '\(resolved)': \(String(cString: strerror(error.code)))")
            }
        }
        try createFunction("writefile", argumentCount: 2, isDirectOnly: true) { arguments in
            guard case .text(let given) = arguments[0] else {
                throw FileFunctionError(message: "writefile: the path must be text")
            }
            let path = FilePath.resolve(given, relativeTo: folder)
            let bytes: [UInt8]
            switch arguments[1] {
            case .blob(let blob): bytes = blob
            case .text(let text): bytes = Array(text.utf8)
            case .null: bytes = []
            case .integer(let integer): bytes = Array(String(integer).utf8)
            case .real(let real): bytes = Array(String(real).utf8)
            }
            try FileContents.write(bytes, to: path)
            return .integer(Int64(bytes.count))
        }
    }
}

extension Database {
    /// Runs `body` with `readfile`/`writefile`, when the connection has them, resolving relative paths
    /// against `folder`; afterwards they resolve as before. A connection without them gets none.
    package func withFileFunctions<Result>(relativeTo folder: String, _ body: () throws -> Result) throws -> Result {
        guard case .some(let previous) = fileFunctionsFolder else { return try body() }
        try registerFileFunctions(relativeTo: folder)
        defer { try? registerFileFunctions(relativeTo: previous) }
        return try body()
    }
}

/// A failure inside `readfile` or `writefile`, reported as the SQL error's message.
struct FileFunctionError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
