import CellarKit
import Testing

/// The machine modes' numbers written without asking SQLite for their text: every real
/// ``RealFormatting/appendDecimal(_:to:)`` writes must be the bytes the SQLite-text path writes for it
/// (SQLite's `%!.15g` text when it reads back, else the shortest), and integers as SQLite writes them.
@Suite struct MachineNumberTextTests {
    /// What the renderer wrote for a real before the fast path: SQLite's own text of it, checked by
    /// reading it back.
    private static func sqlitePath(_ value: Double) -> [UInt8] {
        var output: [UInt8] = []
        RealText.withSQLiteText(of: value) { RealFormatting.append(value, sqliteText: $0, to: &output) }
        return output
    }

    private static func fastPath(_ value: Double) -> [UInt8]? {
        var output: [UInt8] = []
        return RealFormatting.appendDecimal(value, to: &output) ? output : nil
    }

    /// Decimals of 1 to 15 digits at every scale the fast path takes and beyond, and their
    /// neighbours.
    private static func decimals() -> [Double] {
        var generator = SeededGenerator(seed: 26)
        var values: [Double] = []
        for digits in 1...15 {
            for exponent in -30...20 {
                for _ in 0..<12 {
                    var mantissa = UInt64.random(in: 1...9, using: &generator)
                    for _ in 1..<digits { mantissa = mantissa * 10 + UInt64.random(in: 0...9, using: &generator) }
                    guard let value = Double("\(mantissa)e\(exponent)") else { continue }
                    values += [value, -value, value.nextUp, value.nextDown]
                }
            }
        }
        return values
    }

    @Test func everyRealTheFastPathWritesIsTheSQLiteText() {
        var generator = SeededGenerator(seed: 7)
        let edges: [Double] = [
            0, -0.0, 1, -1, 0.1, 0.2, 0.1 + 0.2, 1e-7, 1e-7.nextDown, 1e-5, 1.5e-5, 0.0001, 0.001, 1e14, 1e15,
            1e15.nextDown, 999_999_999_999_999, 123_456_789_012_345, 0.000_123_456_789_012_345, 9.5, 42,
            .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity, 1e300,
            4_503_599_627_370_496.5, 9_007_199_254_740_993, 0.3, 2.5e-7, 3.0e-5, 1e-4.nextDown,
        ]
        let hundredths = (0..<20_000).map { Double($0) / 100 }
        let randomBits = (0..<20_000).map { _ in RandomValues.real(&generator) }
        var written = 0
        for value in edges + hundredths + Self.decimals() + randomBits {
            guard let fast = Self.fastPath(value) else { continue }
            written += 1
            let expected = Self.sqlitePath(value)
            #expect(
                fast == expected,
                "\(value.bitPattern): \(String(decoding: fast, as: UTF8.self)) ≠ \(String(decoding: expected, as: UTF8.self))")
            if fast != expected { return }
        }
        // The fast path is taken for every decimal it exists for (at most 15 digits, from 10⁻⁷ to
        // 10¹⁵), not skipped.
        let covered = Self.decimals().enumerated().filter {
            $0.offset % 4 < 2 && $0.element.magnitude >= 1e-7 && $0.element.magnitude < 1e15
        }
        #expect(covered.count > 5_000)
        #expect(covered.allSatisfy { Self.fastPath($0.element) != nil })
        #expect(written > covered.count)
        #expect(hundredths.allSatisfy { Self.fastPath($0) != nil })
        #expect(Self.fastPath(0.1 + 0.2) == nil)
        #expect(Self.fastPath(-0.0) == nil)
    }

    @Test(arguments: [
        (Int64(0), "0"), (7, "7"), (-7, "-7"), (1_000_000, "1000000"), (.max, "9223372036854775807"),
        (.min, "-9223372036854775808"),
    ])
    func integersAreWrittenAsSQLiteWritesThem(value: Int64, text: String) {
        var output: [UInt8] = []
        IntegerText.append(value, to: &output)
        #expect(String(decoding: output, as: UTF8.self) == text)
    }

    @Test func hexEncodingWritesTwoLowercaseDigitsPerByte() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let expected = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(HexEncoding.string(bytes) == expected)
        #expect(HexEncoding.string([]) == "")
    }
}
