/// A small deterministic random number generator (SplitMix64), so a failing random test can be replayed
/// from its seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Sizes of randomized and fault-injection tests: the suite's by default, larger when
/// `CELLAR_SOAK=1` is set (minutes to an hour).
public enum Soak {
    /// Whether the soak mode is on.
    public static var isOn: Bool { ChildProcess.currentEnvironment["CELLAR_SOAK"] == "1" }

    /// `suite` normally, `soak` in soak mode.
    public static func count(suite: Int, soak: Int) -> Int { isOn ? soak : suite }
}
