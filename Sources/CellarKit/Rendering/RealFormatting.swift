import Glibc

/// The text of a real in machine modes: SQLite's own text when it reads back to the same double
/// (`42.0`, `1.0e+300`, as the sqlite3 CLI prints them), otherwise the shortest text that does
/// (`0.30000000000000004`), so no bit is lost.
enum RealFormatting {
    /// Appends the lossless text of `value` to `output`, given SQLite's 15-digit text of it.
    static func append(_ value: Double, sqliteText: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        if readsBack(sqliteText, as: value) {
            output.append(contentsOf: sqliteText)
        } else {
            output.append(contentsOf: shortest(value).utf8)
        }
    }

    /// The shortest text that reads back as `value`, with a `.0` on whole numbers; infinities as
    /// `9.0e+999` (which SQL and JSON both read as infinity).
    static func shortest(_ value: Double) -> String {
        if value.isInfinite { return value < 0 ? "-9.0e+999" : "9.0e+999" }
        return value.description
    }

    /// Whether SQLite's text reads back as `value`; never for infinities, whose text (`Inf`) neither
    /// SQL nor JSON reads as a number.
    private static func readsBack(_ text: UnsafeBufferPointer<UInt8>, as value: Double) -> Bool {
        guard value.isFinite, text.count > 0, text.count < 40 else { return false }
        var characters: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &characters) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(text))
            let start = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            return strtod(start, nil).bitPattern == value.bitPattern
        }
    }
}
