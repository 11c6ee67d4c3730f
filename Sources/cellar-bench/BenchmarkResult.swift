/// The medians of one benchmark and how they compare with its targets.
struct BenchmarkResult {
    let benchmark: Benchmark
    let cellar: Benchmark.Summary
    let sqlite: Benchmark.Summary?

    var timeRatio: Double? { sqlite.map { cellar.seconds / $0.seconds } }
    var memoryRatio: Double? { sqlite.map { Double(cellar.peakBytes) / Double($0.peakBytes) } }

    /// Whether every target of the row is met.
    var meetsTargets: Bool {
        if let target = benchmark.timeTarget, let ratio = timeRatio, ratio > target { return false }
        if let limit = benchmark.absoluteTimeTarget, cellar.seconds > limit { return false }
        if let target = benchmark.memoryTarget, let ratio = memoryRatio, ratio > target { return false }
        if let limit = benchmark.absoluteMemoryTarget, cellar.peakBytes > limit { return false }
        return true
    }
}
