import CellarKit
import Testing

@Suite struct TextUtilityTests {
    @Test(arguments: [
        (0, "a;\nbéc", 1, 1), (2, "a;\nbéc", 1, 3), (3, "a;\nbéc", 2, 1), (6, "a;\nbéc", 2, 3), (7, "a;\nbéc", 2, 4),
        (4, "🍷x", 1, 2), (100, "ab", 1, 3), (-1, "ab", 1, 1),
    ])
    func byteOffsetsBecomeLinesAndCharacterColumns(offset: Int, text: String, line: Int, column: Int) {
        #expect(SourceLocation(byteOffset: offset, in: text) == SourceLocation(line: line, column: column))
    }

    /// One walker serves a whole text and a stream read piece by piece: walking two pieces in turn
    /// ends where walking the whole does, for contiguous and non-contiguous bytes alike.
    @Test(arguments: ["", "a;\nbéc", "\n\n🍷x\né\n", "one\r\ntwo"])
    func walkingInPiecesEndsWhereTheWholeTextEnds(text: String) {
        let bytes = Array(text.utf8)
        let whole = SourceLocation(byteOffset: bytes.count, in: bytes)
        for split in 0...bytes.count {
            let start = SourceLocation(line: 1, column: 1)
            #expect(start.advanced(over: bytes[..<split]).advanced(over: bytes[split...]) == whole)
            #expect(
                start.advanced(over: bytes[..<split].lazy.map { $0 }).advanced(over: bytes[split...].lazy.map { $0 }) == whole)
        }
    }

    /// The walker reads eight bytes at a time: on texts long enough for that, with newlines and
    /// multi-byte characters at every place in a word, it agrees with counting byte by byte.
    @Test func theWordAtATimeWalkerAgreesWithCountingByteByByte() {
        let pieces = ["a", "\n", "é", "葡", "🍷", "\r\n", "xyz", "\n\n", "        "]
        var generator = SplitMix(seed: 26)
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<Int(generator.next() % 40) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let bytes = Array(text.utf8)
            var expected = SourceLocation(line: 3, column: 5)
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    expected = SourceLocation(line: expected.line + 1, column: 1)
                } else if byte & 0xC0 != 0x80 {
                    expected.column += 1
                }
            }
            #expect(SourceLocation(line: 3, column: 5).advanced(over: bytes) == expected, "\(bytes)")
        }
    }

    @Test func lineTextDropsTheTerminatorIncludingCR() {
        #expect(SourceLocation.lineText(2, in: "one\r\ntwo\r\nthree") == "two")
        #expect(SourceLocation.lineText(4, in: "one\ntwo") == nil)
    }

    @Test(arguments: [
        ("plain", "plain"), ("a\nb\tc\r", "a\\nb\\tc\\r"), ("\u{1B}[31mred", "\\x1b[31mred"), ("bell\u{7}", "bell\\x07"),
        ("del\u{7F}", "del\\x7f"), ("c1\u{9B}2J", "c1\\x9b2J"), ("葡萄 e\u{301} 🍷", "葡萄 e\u{301} 🍷"),
    ])
    func controlCharactersAreEscaped(input: String, expected: String) {
        #expect(ControlCharacterEscaping.escape(input) == expected)
    }

    @Test func invalidUTF8BytesAreShownAsHex() {
        var output: [UInt8] = []
        let bytes: [UInt8] = [0x61, 0xFF, 0xC3, 0x28, 0xE2, 0x82, 0xAC]
        bytes.withUnsafeBufferPointer { ControlCharacterEscaping.escape($0, into: &output) }
        #expect(String(decoding: output, as: UTF8.self) == "a\\xff\\xc3(€")
    }

    @Test(
        arguments: [
            ([0x61, 0x62], nil), ([0x61, 0xC0, 0x80], 1), ([0xED, 0xA0, 0x80], 0), ([0xF4, 0x90, 0x80, 0x80], 0),
            ([0xE2, 0x82], 0), ([0xF0, 0x9F, 0x8D, 0xB7], nil),
        ] as [([UInt8], Int?)])
    func firstInvalidByteIsFound(bytes: [UInt8], expected: Int?) {
        #expect(bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0) } == expected)
    }
}

/// A small deterministic generator (SplitMix64), so that a failure repeats.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
