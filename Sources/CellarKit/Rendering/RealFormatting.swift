import Glibc

/// The text of a real in machine modes: SQLite's own text when it reads back to the same double
/// (`42.0`, `1.0e+300`, as the sqlite3 CLI prints them), otherwise the shortest text that does
/// (`0.30000000000000004`), so no bit is lost.
package enum RealFormatting {
    /// Appends the lossless text of `value` to `output`, given SQLite's 15-digit text of it.
    package static func append(_ value: Double, sqliteText: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        if readsBack(sqliteText, as: value) {
            output.append(contentsOf: sqliteText)
        } else {
            output.append(contentsOf: shortest(value).utf8)
        }
    }

    /// Appends what ``append(_:sqliteText:to:)`` would for `value`, without SQLite's text, when
    /// `value` is the double nearest a decimal of at most 15 significant digits below 10¹⁵ (`0.01`,
    /// `42.0`, `1.5e-07`); returns false, appending nothing, for any other value.
    ///
    /// Such a decimal is the only one of at most 15 digits that reads back as `value` (15 digits is
    /// what a double always keeps), so it is the digits SQLite's `%!.15g` rounds `value` to: the text
    /// is those digits in SQLite's layout. Finding it costs a multiplication and a division per
    /// digit after the point, where SQLite's formatter and `strtod` reading its text back cost a few
    /// hundred instructions each.
    package static func appendDecimal(_ value: Double, to output: inout [UInt8]) -> Bool {
        let magnitude = value.magnitude
        guard magnitude < 1e15, magnitude >= 1e-7 else {
            guard value == 0, value.sign == .plus else { return false }
            output.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: "."), UInt8(ascii: "0")])
            return true
        }
        // Powers of ten up to 10²² are exact doubles; `whole / scale` is then the correctly rounded
        // quotient, which is what reading the decimal `whole`e-`places` gives.
        var scale = 1.0
        var places = 0
        while true {
            let scaled = magnitude * scale
            guard scaled < 1e15 else { return false }
            let whole = scaled.rounded()
            if whole >= 1, whole / scale == magnitude {
                appendSQLiteLayout(digits: UInt64(whole), places: places, isNegative: value < 0, to: &output)
                return true
            }
            places += 1
            guard places <= 22 else { return false }
            scale *= 10
        }
    }

    /// Appends the decimal `digits`×10^-`places` as SQLite's `%!.15g` writes it: fixed notation
    /// (`0.001`, `42.0`) for a decimal exponent from -4 to 14, else one digit, the others after the
    /// point and `e±XX` (`1.0e-05`, `1.25e-07`); trailing zeros dropped, but a `.0` kept.
    private static func appendSQLiteLayout(digits: UInt64, places: Int, isNegative: Bool, to output: inout [UInt8]) {
        var digits = digits
        var places = places
        while digits % 10 == 0 {
            digits /= 10
            places -= 1
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
            // The digits, most significant first, at the end of the first 20 bytes.
            var start = 20
            var rest = digits
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            let count = 20 - start
            let exponent = count - 1 - places
            var end = 20
            func put(_ byte: UInt8) {
                buffer[end] = byte
                end += 1
            }
            func putDigits(_ range: Range<Int>) {
                for index in range { put(buffer[start + index]) }
            }
            if isNegative { put(UInt8(ascii: "-")) }
            if exponent < -4 {
                putDigits(0..<1)
                put(UInt8(ascii: "."))
                if count == 1 { put(UInt8(ascii: "0")) } else { putDigits(1..<count) }
                put(UInt8(ascii: "e"))
                put(UInt8(ascii: "-"))
                let power = -exponent
                if power >= 100 { put(UInt8(ascii: "0") + UInt8(power / 100)) }
                put(UInt8(ascii: "0") + UInt8(power / 10 % 10))
                put(UInt8(ascii: "0") + UInt8(power % 10))
            } else if exponent < 0 {
                put(UInt8(ascii: "0"))
                put(UInt8(ascii: "."))
                for _ in 0..<(-exponent - 1) { put(UInt8(ascii: "0")) }
                putDigits(0..<count)
            } else {
                let integerDigits = exponent + 1
                putDigits(0..<min(integerDigits, count))
                if integerDigits > count { for _ in count..<integerDigits { put(UInt8(ascii: "0")) } }
                put(UInt8(ascii: "."))
                if integerDigits >= count { put(UInt8(ascii: "0")) } else { putDigits(integerDigits..<count) }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[20..<end]))
        }
    }

    /// The shortest text that reads back as `value`, with a `.0` on whole numbers; infinities as
    /// `9.0e+999` (which SQL and JSON both read as infinity).
    package static func shortest(_ value: Double) -> String {
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

/// Decimal text of integers, as SQLite writes them (`-42`), without asking SQLite to convert.
package enum IntegerText {
    /// The most bytes the text of an `Int64` takes: a sign and 19 digits.
    package static let maximumCount = 20

    /// Writes the decimal digits of `value`, with a `-` when it is negative, so that they end at the end
    /// of `buffer` (at least ``maximumCount`` bytes).
    /// - Returns: the index in `buffer` where the text starts.
    package static func write(_ value: Int64, endingAt buffer: UnsafeMutableRawBufferPointer) -> Int {
        var start = buffer.count
        var rest = value.magnitude
        repeat {
            start -= 1
            buffer[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while rest > 0
        if value < 0 {
            start -= 1
            buffer[start] = UInt8(ascii: "-")
        }
        return start
    }

    /// Appends the decimal digits of `value`, with a `-` when it is negative.
    package static func append(_ value: Int64, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(byteCount: maximumCount, alignment: 1) { buffer in
            let start = write(value, endingAt: buffer)
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }
}
