import Glibc

/// How SQLite writes a real as text, for values that come from elsewhere than a local statement (a
/// dqlite cluster), so that they render as a local file's do.
package enum RealText {
    /// The text SQLite gives a real (`sqlite3_column_text`, format `%!.15g`): 15 significant digits,
    /// and a `.0` on a whole mantissa (`42.0`, `1.0e+300`); `Inf` and `-Inf` for infinities.
    package static func sqliteText(of value: Double) -> String {
        if value.isInfinite { return value < 0 ? "-Inf" : "Inf" }
        var buffer = [CChar](repeating: 0, count: 48)
        _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.15g", $0) }
        var text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let mantissaEnd = text.firstIndex(of: "e") ?? text.endIndex
        if !text[..<mantissaEnd].contains(".") { text.insert(contentsOf: ".0", at: mantissaEnd) }
        return text
    }
}
