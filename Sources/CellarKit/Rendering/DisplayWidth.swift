internal import CSQLite
import Glibc

/// How many terminal columns text takes, by the C library's `wcwidth` under a UTF-8 locale: CJK and
/// emoji take two, combining marks none.
///
/// The first use sets `LC_CTYPE` to `C.UTF-8` when the process's own locale is not UTF-8 (glibc's
/// `wcwidth` knows only ASCII in the `C` locale). That is the one process-wide effect of rendering,
/// and it only changes how multibyte characters are classified.
package enum DisplayWidth {
    private static let isLocaleReady: Bool = {
        let current = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
        if current.uppercased().contains("UTF-8") || current.uppercased().contains("UTF8") { return true }
        return setlocale(LC_CTYPE, "C.UTF-8") != nil || setlocale(LC_CTYPE, "C.utf8") != nil
    }()

    /// The display width of valid UTF-8 `bytes` that hold no control characters.
    package static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var width = 0
        var index = 0
        var isASCII = true
        for byte in bytes where byte >= 0x80 {
            isASCII = false
            break
        }
        if isASCII { return bytes.count }
        while index < bytes.count {
            guard let (scalar, length) = UTF8Validation.decodeScalar(in: bytes, at: index) else {
                width += 1
                index += 1
                continue
            }
            width += of(scalar)
            index += length
        }
        return width
    }

    /// The display width of `text` (escape control characters first).
    package static func of(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { of($0) }
    }

    /// The display width of one scalar: 0, 1 or 2; a character `wcwidth` cannot classify counts as 1.
    package static func of(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x7F { return scalar.value < 0x20 ? 0 : 1 }
        _ = isLocaleReady
        let width = cellar_wcwidth(scalar.value)
        return width < 0 ? 1 : Int(width)
    }
}
