internal import CSQLite
import Glibc

/// How SQLite writes a real as text, for values that come from elsewhere than a local statement (a
/// dqlite cluster), so that they render as a local file's do.
package enum RealText {
    /// The text SQLite gives a real (`sqlite3_column_text`, format `%!.15g`): 15 significant digits,
    /// and a `.0` on a whole mantissa (`42.0`, `1.0e+300`); `Inf` and `-Inf` for infinities.
    package static func sqliteText(of value: Double) -> String {
        withSQLiteText(of: value) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the bytes of ``sqliteText(of:)``, written by SQLite's own formatter into a
    /// buffer on the stack (no allocation: a renderer calls it once per real of a remote row).
    package static func withSQLiteText<Result>(of value: Double, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result)
        rethrows -> Result
    {
        try withUnsafeTemporaryAllocation(of: CChar.self, capacity: 48) { buffer in
            cellar_real_text(value, buffer.baseAddress!, Int32(buffer.count))
            let length = strlen(buffer.baseAddress!)
            return try buffer.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: length) {
                try body(UnsafeBufferPointer(start: $0, count: length))
            }
        }
    }
}
