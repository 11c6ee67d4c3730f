import BenchmarkReport
import Glibc

/// One row of the performance table (docs/internals/performance.md): cellar against the sqlite3 CLI doing the same work.
struct Benchmark {
    /// What is measured, as the README's table names it.
    let name: String
    /// The most cellar's median time may be, as a multiple of sqlite3's (nil: not a target).
    let timeTarget: Double?
    /// The most cellar's median peak memory may be, as a multiple of sqlite3's (nil: not a target).
    let memoryTarget: Double?
    /// The most cellar's peak memory may be, in bytes (nil: not a target).
    var absoluteMemoryTarget: Int? = nil
    /// The cellar command (nil for a row measured inside cellar-bench, see ``inProcess``).
    let cellar: BenchmarkCommand?
    /// The sqlite3 command it is compared with (nil: cellar alone, e.g. against an absolute target).
    let sqlite: BenchmarkCommand?
    /// The most cellar's median time may be, in seconds (nil: not a target).
    var absoluteTimeTarget: Double? = nil
    /// Measures a row inside cellar-bench (a library call rather than a process), given the number of runs.
    var inProcess: ((_ runs: Int) throws -> Summary)? = nil
    /// Runs before every measured run (for example, deleting the database the run creates).
    var reset: () throws -> Void = {}
    /// Whether each program runs once, unmeasured, before the measured runs of a round: for rows that
    /// read a large input file, so that neither program pays alone for bringing it into the page
    /// cache (or for what the row before left the machine doing).
    var warmsUp = false

    /// Up to how many runs per round each run's time is printed as it is measured, in the order the two programs
    /// ran (the many short runs of `--version` are not).
    static let runsShown = 7

    /// Medians over `runs` runs, alternating which program goes first to share out cache effects;
    /// which goes first in the first run alternates with `round`, so that with one run per round
    /// cellar does not always go first.
    func measure(runs: Int, round: Int = 0, scratch: String) throws -> BenchmarkResult {
        if let inProcess { return BenchmarkResult(benchmark: self, cellar: try inProcess(runs), sqlite: nil) }
        guard let cellar else { throw BenchmarkProcess.Failure(description: "\(name): nothing to measure") }
        var cellarRuns: [Measurement] = []
        var sqliteRuns: [Measurement] = []
        if warmsUp {
            for command in [cellar] + (sqlite.map { [$0] } ?? []) {
                try reset()
                _ = try BenchmarkProcess.measure(command)
            }
        }
        for run in 0..<runs {
            let order = (run + round) % 2 == 0 ? [true, false] : [false, true]
            var times: [String] = []
            for isCellar in order {
                guard isCellar || sqlite != nil else { continue }
                try reset()
                let measurement = try BenchmarkProcess.measure(isCellar ? cellar : sqlite!)
                guard measurement.status == 0 else {
                    let command = isCellar ? cellar : sqlite!
                    throw BenchmarkProcess.Failure(
                        description:
                            "\(name): \(command.executable) \(command.arguments.joined(separator: " ")) exited \(measurement.status)"
                    )
                }
                if isCellar { cellarRuns.append(measurement) } else { sqliteRuns.append(measurement) }
                times.append("\(isCellar ? "cellar" : "sqlite3") \(BenchmarkTable.seconds(measurement.seconds))")
            }
            if sqlite != nil, runs <= Self.runsShown { print("cellar-bench:   \(times.joined(separator: ", then "))") }
        }
        var cellarSummary = Summary(cellarRuns)
        try reset()
        if let peak = try BenchmarkProcess.peakMemory(cellar, scratch: scratch) { cellarSummary.peakBytes = peak }
        var sqliteSummary = sqliteRuns.isEmpty ? nil : Summary(sqliteRuns)
        if let sqlite {
            try reset()
            if let peak = try BenchmarkProcess.peakMemory(sqlite, scratch: scratch) { sqliteSummary?.peakBytes = peak }
        }
        return BenchmarkResult(benchmark: self, cellar: cellarSummary, sqlite: sqliteSummary)
    }

    /// Median time of several runs and the peak memory of one (see ``BenchmarkProcess/peakMemory(_:scratch:)``).
    struct Summary {
        let seconds: Double
        var peakBytes: Int

        /// A summary measured in-process.
        init(seconds: Double, peakBytes: Int) {
            self.seconds = seconds
            self.peakBytes = peakBytes
        }

        init(_ runs: [Measurement]) {
            seconds = RoundSpread.median(runs.map(\.seconds))
            peakBytes = Int(RoundSpread.median(runs.map { Double($0.peakBytes) }))
        }
    }
}
