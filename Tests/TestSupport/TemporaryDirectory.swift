import Glibc

/// A fresh directory under the system's temporary folder, removed when released.
///
/// Tests run in parallel; each makes its own.
public final class TemporaryDirectory: @unchecked Sendable {
    // @unchecked: the path is immutable after init and the directory is only removed in deinit.
    /// The directory's absolute path.
    public let path: String

    /// Creates the directory under `base` (`/dev/shm` keeps fsync-heavy fault tests in memory).
    public init(base: String = "/tmp") {
        var template = Array("\(base)/cellar-test-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        path = String(cString: created!)
    }

    deinit {
        Self.removeTree(path)
    }

    /// Removes `path` and everything below it, without following symbolic links (`rm -rf`).
    public static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            chmod(path, 0o755)
            if let folder = opendir(path) {
                var names: [String] = []
                while let entry = readdir(folder) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    if name != ".", name != ".." { names.append(name) }
                }
                closedir(folder)
                for name in names { removeTree("\(path)/\(name)") }
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// `path/name`.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `contents` to `name` (creating folders on the way) and returns the file's path.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> String {
        try write(name, bytes: Array(contents.utf8))
    }

    /// Writes raw bytes to `name` (creating folders on the way) and returns the file's path.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let target = file(name)
        if let slash = target.lastIndex(of: "/") {
            Self.makeFolders(String(target[..<slash]))
        }
        try FileBytes.write(bytes, to: target)
        return target
    }

    /// Creates `folder` and any missing parents (`mkdir -p`).
    public static func makeFolders(_ folder: String) {
        var current = ""
        for part in folder.split(separator: "/", omittingEmptySubsequences: false) {
            current += current.isEmpty && folder.hasPrefix("/") ? "/\(part)" : (current.isEmpty ? "\(part)" : "/\(part)")
            if !part.isEmpty { mkdir(current, 0o755) }
        }
    }
}
