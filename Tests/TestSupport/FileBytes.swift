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
}
