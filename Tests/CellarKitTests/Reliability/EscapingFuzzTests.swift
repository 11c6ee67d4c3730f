import CellarKit
import TestSupport
import Testing

/// Random bytes through the terminal escaping and the UTF-8 validator.
@Suite struct EscapingFuzzTests {
    @Test func escapedOutputNeverHoldsAControlByteOrInvalidUTF8() {
        var generator = SeededGenerator(seed: 0xE5C)
        for _ in 0..<Soak.count(suite: 20_000, soak: 1_000_000) {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var output: [UInt8] = []
            bytes.withUnsafeBufferPointer { ControlCharacterEscaping.escape($0, into: &output) }
            #expect(!output.contains { $0 < 0x20 || $0 == 0x7F }, "\(bytes)")
            #expect(output.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0) } == nil, "\(bytes)")
            let text = String(decoding: output, as: UTF8.self)
            #expect(!text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "\(bytes)")
        }
    }

    @Test func validatorAgreesWithTheStandardLibrary() {
        var generator = SeededGenerator(seed: 0x0FF5E7)
        for _ in 0..<Soak.count(suite: 20_000, soak: 1_000_000) {
            let bytes = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                Bool.random(using: &generator)
                    ? UInt8.random(in: 0x80...0xFF, using: &generator) : UInt8.random(in: 0...0x7F, using: &generator)
            }
            let isValid = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0) } == nil
            #expect(isValid == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
    }
}
