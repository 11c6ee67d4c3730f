import CellarKit
import Glibc

/// Deterministic pseudo-random bytes of any size, written to files a megabyte at a time, and their
/// checksums, for byte-identical round trips of blobs.
public enum PatternBytes {
    /// `count` bytes from `seed`.
    public static func bytes(count: Int, seed: UInt64 = 1) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        var result = [UInt8]()
        result.reserveCapacity(count)
        while result.count < count {
            withUnsafeBytes(of: generator.next()) { result.append(contentsOf: $0.prefix(count - result.count)) }
        }
        return result
    }

    /// Writes `count` bytes from `seed` to `path` without holding more than a megabyte.
    public static func writeFile(count: Int, seed: UInt64 = 1, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileBytes.Failure(description: "cannot create \(path): errno \(errno)") }
        defer { close(descriptor) }
        var generator = SeededGenerator(seed: seed)
        var chunk = [UInt64](repeating: 0, count: 1 << 17)
        var remaining = count
        while remaining > 0 {
            for index in chunk.indices { chunk[index] = generator.next() }
            let length = min(remaining, chunk.count * 8)
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, length) }
            guard written == length else { throw FileBytes.Failure(description: "cannot write \(path): errno \(errno)") }
            remaining -= length
        }
    }

    /// The SHA-256 of the file at `path`, from `sha256sum` (fast at any size).
    public static func checksum(ofFile path: String) throws -> String {
        let result = try Shell.run("/usr/bin/sha256sum", [path], timeout: 120)
        guard result.status == 0, let digest = result.output.split(separator: " ").first else {
            throw FileBytes.Failure(description: "sha256sum \(path): \(result)")
        }
        return String(digest)
    }

    /// The SHA-256 of `bytes`.
    public static func checksum(of bytes: [UInt8]) -> String {
        SHA256.hexDigest(of: bytes)
    }
}
