import CZlib
import CellarKit

/// zlib's one-call compression as sqlite3's `sqlar` extension uses it, and the two SQL functions
/// that extension registers, so that an archive cellar writes is an archive sqlite3 reads and back.
enum SQLArchiveFunctions {
    /// Why zlib refused.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `bytes` compressed with zlib's `compress` (the zlib format at the default level), or nil when
    /// that is not smaller (sqlar then stores the bytes as they are).
    static func compressed(_ bytes: [UInt8]) throws -> [UInt8]? {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let code = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress(out.baseAddress, &length, input.baseAddress, uLong(input.count))
            }
        }
        guard code == Z_OK else { throw Failure(description: "zlib cannot compress (error \(code))") }
        guard Int(length) < bytes.count else { return nil }
        return Array(output.prefix(Int(length)))
    }

    /// The `size` bytes that `bytes` (zlib format) hold.
    static func uncompressed(_ bytes: [UInt8], size: Int) throws -> [UInt8] {
        var length = uLongf(size)
        var output = [UInt8](repeating: 0, count: size)
        let code = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &length, input.baseAddress, uLong(input.count))
            }
        }
        guard code == Z_OK, Int(length) == size else {
            throw Failure(description: "error in uncompress()")
        }
        return output
    }

    /// Registers `sqlar_compress(X)` and `sqlar_uncompress(X, SZ)` on `database`, as sqlite3 3.40's
    /// shell does: a blob is compressed when that makes it smaller, anything else is returned as it
    /// is; X is returned as it is when SZ (read as an integer) is 0 or X's length in bytes, and is
    /// otherwise uncompressed to SZ bytes (an error when that fails, a negative SZ included).
    static func register(on database: Database) throws {
        try database.createFunction("sqlar_compress", argumentCount: 1, isDeterministic: true) { arguments in
            guard case .blob(let bytes) = arguments[0] else { return arguments[0] }
            return try compressed(bytes).map(Value.blob) ?? arguments[0]
        }
        try database.createFunction("sqlar_uncompress", argumentCount: 2, isDeterministic: true) { arguments in
            let size: Int64
            switch arguments[1] {
            case .integer(let integer): size = integer
            case .real(let real): size = Int64(exactly: real.rounded(.towardZero)) ?? 0
            case .text(let text): size = DotCommandLine.integerValue(text)
            default: size = 0
            }
            let bytes: [UInt8]
            switch arguments[0] {
            case .blob(let blob): bytes = blob
            case .text(let text): bytes = Array(text.utf8)
            case .integer(let integer): bytes = Array(String(integer).utf8)
            case .real(let real): bytes = Array(String(real).utf8)
            case .null: bytes = []
            }
            guard size != 0, size != bytes.count else { return arguments[0] }
            guard size > 0, size <= Int64(Int32.max) else { throw Failure(description: "error in uncompress()") }
            return .blob(try uncompressed(bytes, size: Int(size)))
        }
    }
}
