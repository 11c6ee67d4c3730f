/// What one run cost.
struct Measurement {
    /// Wall-clock seconds from spawn to exit.
    let seconds: Double
    /// Peak resident memory in bytes (`ru_maxrss` from `wait4`).
    let peakBytes: Int
    /// The exit status.
    let status: Int32
}
