internal import CSQLite
import Glibc

/// How many terminal columns text takes, by the C library's `wcwidth` under a UTF-8 locale: CJK and
/// emoji take two, combining marks none.
///
/// glibc's `wcwidth` knows only ASCII in the `C` locale, and an embedding app's locale is its own
/// business, so no process-wide state changes: a `C.UTF-8` locale object is made once with
/// `newlocale` and made current with `uselocale` on the calling thread only, around each measurement,
/// and the thread's previous locale is restored at once. When the system has no `C.UTF-8` locale,
/// scalars `wcwidth` cannot classify count as one column.
package enum DisplayWidth {
    /// The `C.UTF-8` character-type locale, or nil when the system has none.
    // nonisolated(unsafe): the locale object is created once and never changed afterwards; uselocale
    // installs it per thread, and glibc documents locale objects as safe to use from several threads.
    nonisolated(unsafe) private static let utf8Locale: locale_t? =
        newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "C.utf8", nil)

    /// The display width of valid UTF-8 `bytes` that hold no control characters.
    package static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var isASCII = true
        for byte in bytes where byte >= 0x80 {
            isASCII = false
            break
        }
        if isASCII { return bytes.count }
        return inUTF8Locale {
            var width = 0
            var index = 0
            while index < bytes.count {
                guard let (scalar, length) = UTF8Validation.decodeScalar(in: bytes, at: index) else {
                    width += 1
                    index += 1
                    continue
                }
                width += measure(scalar)
                index += length
            }
            return width
        }
    }

    /// The display width of `text` (escape control characters first).
    package static func of(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { of($0) }
    }

    /// The display width of one scalar: 0, 1 or 2; a character `wcwidth` cannot classify counts as 1.
    package static func of(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x7F { return scalar.value < 0x20 ? 0 : 1 }
        return inUTF8Locale { measure(scalar) }
    }

    /// `wcwidth` of a scalar under the thread's current locale.
    private static func measure(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x7F { return scalar.value < 0x20 ? 0 : 1 }
        let width = cellar_wcwidth(scalar.value)
        return width < 0 ? 1 : Int(width)
    }

    /// Runs `body` with `C.UTF-8` as this thread's locale, then puts the thread's locale back.
    private static func inUTF8Locale<Result>(_ body: () -> Result) -> Result {
        guard let utf8Locale else { return body() }
        let previous = uselocale(utf8Locale)
        defer { uselocale(previous) }
        return body()
    }
}
