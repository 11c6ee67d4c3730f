internal import CSQLite
import CellarKit
import Glibc

/// The text SQLite gives a number (`sqlite3_column_text`), for the integers and reals of a remote row,
/// written into a caller's buffer on the stack: no allocation, and no generic call per value.
enum CellText {
    /// Room for the longest text: an integer's sign and 19 digits, a real's `%!.15g` (at most 24
    /// bytes, `-1.23456789012346e-308`), and a NUL.
    typealias Digits = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    /// An empty buffer to write into.
    static let noDigits: Digits = (0, 0, 0, 0, 0, 0)

    /// Writes the decimal text of `value` (`-` and digits) at the start of `digits`.
    /// - Returns: its length in bytes.
    static func write(_ value: Int64, into digits: inout Digits) -> Int {
        withUnsafeMutableBytes(of: &digits) { buffer in
            let text = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<IntegerText.maximumCount])
            let start = IntegerText.write(value, endingAt: text)
            let count = IntegerText.maximumCount - start
            // Written to end where the room for it ends: moved to the start (the two may overlap).
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: count)
            return count
        }
    }

    /// Writes the text SQLite gives `value` (format `%!.15g`: `42.0`, `1.0e+300`, `Inf`), by SQLite's
    /// own formatter, at the start of `digits`.
    /// - Returns: its length in bytes.
    static func write(_ value: Double, into digits: inout Digits) -> Int {
        withUnsafeMutableBytes(of: &digits) { buffer in
            let characters = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            cellar_real_text(value, characters, Int32(buffer.count))
            return strlen(characters)
        }
    }

    /// The first `count` bytes of `bytes`.
    static func prefix(_ count: Int, of bytes: UnsafeRawBufferPointer) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
    }
}
