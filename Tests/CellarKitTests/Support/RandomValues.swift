import CellarKit

/// A small deterministic generator (SplitMix64), so a failing property test fails the same way again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// Random cell values that stress escaping and alignment.
enum RandomValues {
    /// Scalars from every awkward class: C0, DEL, C1, ASCII, Latin, combining, CJK, emoji, and ones
    /// whose width the C library may not know.
    static let awkwardScalars: [ClosedRange<UInt32>] = [
        0x00...0x1F, 0x7F...0x9F, 0x20...0x7E, 0xA0...0x24F, 0x300...0x36F, 0x4E00...0x4FFF, 0x1F300...0x1F64F,
        0xAC00...0xAC50, 0xFE00...0xFE0F, 0x200B...0x200F,
    ]

    /// Random text of 0–`maximumLength` scalars (never NUL, which SQLite text may hold but C strings cannot).
    static func text(_ generator: inout SeededGenerator, maximumLength: Int = 12) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maximumLength, using: &generator) {
            let range = awkwardScalars.randomElement(using: &generator)!
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)), scalar.value != 0 {
                text.append(scalar)
            }
        }
        return String(text)
    }

    /// Random bytes, often not UTF-8.
    static func bytes(_ generator: inout SeededGenerator, maximumLength: Int = 12) -> [UInt8] {
        (0..<Int.random(in: 0...maximumLength, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// A finite double from random bits.
    static func real(_ generator: inout SeededGenerator) -> Double {
        while true {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { return value }
        }
    }
}
