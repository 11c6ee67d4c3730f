import CellarKit
import Glibc

/// Reads and writes whole files with plain system calls.
public enum FileBytes {
    /// An error from a file operation.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
    }

    /// The bytes of the file at `path`.
    public static func read(_ path: String) throws -> [UInt8] {
        try FileContents.read(path)
    }

    /// The text of the file at `path`.
    public static func readText(_ path: String) throws -> String {
        String(decoding: try read(path), as: UTF8.self)
    }

    /// Replaces the file at `path` with `bytes`.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        try FileContents.write(bytes, to: path)
    }

    /// Whether something exists at `path`.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Paths of the files under `folder` (at any depth) whose names end with `suffix`, sorted.
    public static func files(under folder: String, endingWith suffix: String) throws -> [String] {
        guard let directory = opendir(folder) else { throw Failure(description: "cannot open folder \(folder)") }
        defer { closedir(directory) }
        var result: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            let path = folder + "/" + name
            if DirectoryListing.isDirectory(path) {
                result += try files(under: path, endingWith: suffix)
            } else if name.hasSuffix(suffix) {
                result.append(path)
            }
        }
        return result.sorted()
    }
}
